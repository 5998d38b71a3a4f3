import { invalidCases } from '../../generators/invalid.js';
import type { Cause } from '../judge/define.js';
import { invalidRequestCause } from '../judge/finding-id.js';
import type { Outgoing } from '../judge/sent.js';
import { createRequest } from './requests.js';
import type { Session } from './session.js';

/** A create request that must not be accepted, and the rule it breaks. */
export interface Probe {
  rule: string;
  body: string;
  contentType?: string;
}

/**
 * The negative create requests derived from a valid body: every single-rule breakage the schema allows deriving
 * (invalidCases), malformed JSON and a non-JSON Content-Type.
 *
 * Read-only runs send malformed JSON only: a validating framework coerces wrong types (pydantic turns "10" into 10,
 * 42 into "42"), and a lenient one may default a missing field, so any parseable body could create data.
 */
export function createProbes(valid: Record<string, unknown>, readOnly: boolean): Probe[] {
  const text = JSON.stringify(valid);
  const malformed: Probe = {
    rule: 'a body that is not valid JSON, its closing brace cut off',
    body: text.slice(0, -1),
  };
  if (readOnly) return [malformed];
  return [
    ...invalidCases('CreateEvaluationRequest', valid).map((probe) => ({
      rule: `a body breaking ${probe.rule}`,
      body: JSON.stringify(probe.body),
    })),
    malformed,
    { rule: 'the valid body sent as text/plain, not JSON', body: text, contentType: 'text/plain' },
  ];
}

/** A probe's request, labelled with what it sends, so each finding about its answer names the probe. */
function probeRequest(probe: Probe): Outgoing {
  return { ...createRequest(probe.body, probe.contentType), what: `probe: ${probe.rule}` };
}

/**
 * Sends the probes ahead, then judges each in order. They start only now, after the steps before them have been
 * answered: sent beside the valid create, some reached the deployment before it held the record that create made
 * and some after, as timing had it, and a deployment whose answer depends on what it holds was judged differently
 * from one run to the next (test/contract/concurrency.test.ts).
 */
export async function runProbes(session: Session, probes: Probe[]): Promise<void> {
  await session.sendAhead(probes.map(probeRequest));
  for (const probe of probes) {
    const accepted = (status: number) => `${probe.rule}: accepted with ${status}`;
    const role = { kind: 'invalid', accepted, cause: probeCause(probe) } as const;
    await session.request({ operation: 'create', outgoing: probeRequest(probe), role });
  }
}

/** Why a probe is invalid, in the words a client's request through the proxy breaking the same rule gets. */
function probeCause(probe: Probe): Cause {
  let body: { request: unknown } | 'unreadable';
  try {
    body = { request: JSON.parse(probe.body) };
  } catch {
    body = 'unreadable';
  }
  return invalidRequestCause(probe.contentType === undefined, body, 'CreateEvaluationRequest');
}
