import fc from 'fast-check';
import { seedFrom } from '../generators/index.js';
import { invalidCases } from '../generators/invalid.js';
import { formatIssue } from '../schemas/validators/index.js';
import { arbitraryFor } from './arbitraries.js';
import { createRequest } from './checks/create.js';
import { listed, schemaIssues } from './checks/response.js';
import type { Exchange } from '../http/exchange.js';
import { readJsonBody } from '../http/json-body.js';
import { RunStopped, serverErrorFinding, type Session } from './session.js';

/** A property's failure after shrinking: the smallest body found, why it fails, and how to replay it. */
export interface Counterexample {
  check: string;
  finding: string;
  /** With secrets replaced by placeholders. */
  body: string;
  curl: string;
  shrinks: number;
}

interface Case {
  rule?: string;
  body: Record<string, unknown>;
}

type Judge = (exchange: Exchange) => string | undefined;

const successBodyFinding: Judge = (exchange) => {
  if (exchange.failure) return exchange.failure.message;
  const status = exchange.status ?? 0;
  if (status >= 500) return serverErrorFinding(exchange);
  if (status < 200 || status >= 300) return undefined;
  const read = readJsonBody(exchange);
  if ('problem' in read) return `answered ${status}; ${read.problem}`;
  const { data } = read;
  if (!Array.isArray(data)) return `answered ${status} with a body that is not a JSON array`;
  for (const [index, record] of data.entries()) {
    const { errors } = schemaIssues('Evaluation', record);
    if (errors.length > 0) return `answered ${status}; /${index}: ${listed(errors.map(formatIssue), 'issues')}`;
  }
  return undefined;
};

const no5xx: Judge = (exchange) => {
  if (exchange.failure) return exchange.failure.message;
  return exchange.status !== undefined && exchange.status >= 500 ? serverErrorFinding(exchange) : undefined;
};
const rejected: Judge = (exchange) =>
  exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300
    ? `accepted with ${exchange.status}`
    : undefined;
/** The judges of each kind of case: valid and invalid bodies never coincide, so a cached body has one kind. */
const judgesOf = { valid: [successBodyFinding], invalid: [no5xx, rejected] };

/**
 * What the properties keep of an answer: whether anything listened, and each judge's finding. Not the body: cached
 * per case, a hostile deployment's 4 MB bodies would add up to gigabytes.
 */
interface Judged {
  unreachable: boolean;
  findings: Map<Judge, string | undefined>;
}

/** The checks runProperties evaluates, in the order it runs them. */
export const propertyChecks = [
  'create.properties.valid',
  'create.properties.invalid.5xx',
  'create.properties.invalid.rejected',
] as const;
const [validCheck, invalid5xxCheck, invalidRejectedCheck] = propertyChecks;

export interface PropertyOptions {
  examples: number;
  seed: string;
}

/**
 * Property-based create requests: half valid (built from the schema), half invalid (one rule broken by invalidCases).
 * Each response is fetched once and cached by body, so the properties that judge the same cases share requests,
 * and shrinking never resends a body already tried. Counterexamples go to `found` as they are shrunk, so they
 * survive a run that stops midway.
 */
export async function runProperties(
  session: Session,
  options: PropertyOptions,
  found: Counterexample[],
): Promise<void> {
  const cache = new Map<string, Promise<Judged>>();
  // The body sent last before the current one: when nothing listens any more, the one that brought it down.
  let previous: string | undefined;
  let sending: string | undefined;
  const post = (body: string, judges: Judge[]) => {
    let pending = cache.get(body);
    if (!pending) {
      previous = sending;
      sending = body;
      pending = session.request('create', createRequest(body), false).then((exchange) => ({
        unreachable: exchange.failure?.kind === 'unreachable',
        findings: new Map(judges.map((judge) => [judge, judge(exchange)])),
      }));
      cache.set(body, pending);
    }
    return pending;
  };
  const valid = arbitraryFor('CreateEvaluationRequest').map(
    (body) => ({ body: session.canaries.inject(body as Record<string, unknown>) }) as Case,
  );
  const invalid = fc.tuple(valid, fc.nat()).map(([{ body }, pick]): Case => {
    const cases = invalidCases('CreateEvaluationRequest', body);
    const chosen = cases[pick % cases.length];
    return { rule: chosen?.rule, body: chosen?.body as Record<string, unknown> };
  });
  const validRuns = Math.ceil(options.examples / 2);
  const invalidRuns = options.examples - validRuns;
  const seed = seedFrom('properties', options.seed) | 0;

  // The two invalid properties judge the same inputs: drawn once.
  const drawn = new Map<fc.Arbitrary<Case>, Case[]>();
  const check = async (id: string, arbitrary: fc.Arbitrary<Case>, numRuns: number, judge: Judge) => {
    if (numRuns === 0) {
      session.verdicts.skip(id, 'no examples of this kind (--examples too small)');
      return;
    }
    let halted: string | undefined;
    let culprit: string | undefined;
    const holds = async (input: Case) => {
      let judged: Judged;
      try {
        judged = await post(JSON.stringify(input.body), input.rule === undefined ? judgesOf.valid : judgesOf.invalid);
      } catch (error) {
        if (!(error instanceof RunStopped)) throw error;
        halted = error.message;
        return true;
      }
      // A deployment that stopped listening fails every input alike: shrinking towards those would blame the wrong body.
      if (judged.unreachable) {
        halted = 'the deployment stopped answering (cannot connect) during the property-based cases';
        culprit = previous;
        return true;
      }
      return judged.findings.get(judge) === undefined;
    };
    // fc.sample draws the very inputs fc.check draws for this seed (test/contract/concurrency.test.ts checks it): they
    // are sent ahead, as many at once as the pacing allows, and fc.check runs and shrinks serially on their answers.
    const inputs = drawn.get(arbitrary) ?? fc.sample(arbitrary, { numRuns, seed });
    drawn.set(arbitrary, inputs);
    const bodies = new Set(inputs.map((input) => JSON.stringify(input.body)));
    await session.sendAhead([...bodies].filter((body) => !cache.has(body)).map((body) => createRequest(body)));
    const details = await fc.check(fc.asyncProperty(arbitrary, holds), { numRuns, seed });
    // fc.check stops at the first failure; the answers sent ahead for later inputs are still judged, for echoed secrets.
    for (const input of inputs) await holds(input);
    const stop = (blame: boolean) => {
      if (halted === undefined) return;
      session.verdicts.fail('create.transport', halted);
      if (blame && culprit !== undefined) {
        // Unshrunk: shrinking against a deployment that is gone would blame any body.
        const finding =
          'the deployment closed right after answering this request: nothing listens any more (not shrunk)';
        const curl = session.curl(createRequest(culprit));
        session.verdicts.fail(id, finding, curl);
        found.push({ check: id, finding, body: session.redact(culprit), curl, shrinks: 0 });
      }
      throw new RunStopped(halted);
    };
    if (!details.failed || !details.counterexample) {
      if (halted === undefined) session.verdicts.pass(id);
      stop(true);
      return;
    }
    const [input] = details.counterexample;
    const body = JSON.stringify(input.body);
    const finding = `${input.rule ? `${input.rule}: ` : ''}${(await post(body, [judge])).findings.get(judge) ?? 'failed'} (shrunk ${details.numShrinks} times; see the curl command)`;
    const curl = session.curl(createRequest(body));
    session.verdicts.fail(id, finding, curl);
    found.push({ check: id, finding, body: session.redact(body), curl, shrinks: details.numShrinks });
    stop(false);
  };

  await check(validCheck, valid, validRuns, successBodyFinding);
  await check(invalid5xxCheck, invalid, invalidRuns, no5xx);
  await check(invalidRejectedCheck, invalid, invalidRuns, rejected);
}
