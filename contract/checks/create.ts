import { isDocumentedEvaluatorConfig } from '../../schemas/validators/index.js';
import type { Exchange } from '../../http/exchange.js';
import { keyNames, otherKeyNames } from '../secrets.js';
import { isSuccess, type Outgoing, type Session } from '../session.js';
import type { Verdicts } from '../verdicts.js';
import { acceptedSuccess, checkRecord, parseSuccessBody, type Unvouched } from './response.js';

export const createPath = '/evaluations';

export function createRequest(body: string, contentType?: string): Outgoing {
  return { method: 'POST', path: createPath, body, ...(contentType === undefined ? {} : { contentType }) };
}

type Fields = Record<string, unknown>;

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function isObject(value: unknown): value is Fields {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** One Evaluation per requested variant: as many records as variants, each variant in exactly one record. */
function perVariantFinding(request: Fields, records: Fields[], label: string): string | undefined {
  const requested = strings(request.variant_ids);
  const answered = records.flatMap((record) => strings(record.variant_ids));
  const missing = requested.filter((id) => answered.filter((other) => other === id).length !== 1);
  if (records.length === requested.length && missing.length === 0) return undefined;
  return `${label}: ${records.length} Evaluation(s) for ${requested.length} requested variant(s)${missing.length ? `; not in exactly one: ${missing.join(', ')}` : ''}`;
}

function requestIdFindings(request: Fields, record: Fields, where: string): string[] {
  const findings: string[] = [];
  if (typeof record.app_id === 'string' && record.app_id !== request.app_id)
    findings.push(`${where}: app_id ${record.app_id} is not the requested ${String(request.app_id)}`);
  // testset_id is optional in an Evaluation: only a present one can differ.
  if (typeof record.testset_id === 'string' && record.testset_id !== request.testset_id)
    findings.push(`${where}: testset_id ${record.testset_id} is not the requested ${String(request.testset_id)}`);
  return findings;
}

function checkAggregatedResults(verdicts: Verdicts, request: Fields, record: Fields, where: string): void {
  const requested = new Set(strings(request.evaluators_configs));
  const results = Array.isArray(record.aggregated_results) ? record.aggregated_results : [];
  results.forEach((result, index) => {
    const config = isObject(result) ? result.evaluator_config : undefined;
    const at = `${where}/aggregated_results/${index}/evaluator_config`;
    if (!isDocumentedEvaluatorConfig(config)) {
      verdicts.fail(
        'create.body.evaluator-config.known',
        `${at} matches no known alternative: ${JSON.stringify(config)?.slice(0, 60)}`,
      );
      return;
    }
    verdicts.pass('create.body.evaluator-config.known');
    const id = (config as Fields).id as string;
    verdicts.expect(
      'create.body.evaluator-configs',
      requested.has(id) ? undefined : `${at}: config ${id} was not requested`,
    );
  });
}

/** Evaluates the answer of a valid create request against the request it answers. */
function checkEvaluations(verdicts: Verdicts, request: Fields, data: unknown, label: string): void {
  if (!Array.isArray(data)) {
    verdicts.fail(
      'create.body.schema',
      `${label}: the body is ${data === null ? 'null' : typeof data}, not a JSON array of Evaluation`,
    );
    return;
  }
  data.forEach((record, index) => checkRecord(verdicts, 'create', 'Evaluation', record, `${label} /${index}`));
  const records = data.filter(isObject);
  verdicts.expect('create.body.per-variant', perVariantFinding(request, records, label));
  records.forEach((record, index) => {
    const where = `${label} /${index}`;
    const findings = requestIdFindings(request, record, where);
    verdicts.expect('create.body.request-ids', findings.length ? findings.join('; ') : undefined);
    checkAggregatedResults(verdicts, request, record, where);
  });
  if (records.every((record) => !Array.isArray(record.aggregated_results) || record.aggregated_results.length === 0)) {
    const reason = 'aggregated_results empty: the service computes them in the background (not a failure)';
    verdicts.skip('create.body.evaluator-config.known', reason);
    verdicts.skip('create.body.evaluator-configs', reason);
  }
}

/**
 * POST of a valid request. `bodyGiven`: the user supplied it; a generated body names ids a real deployment lacks.
 * Resolves to whether it was accepted and the ids of the Evaluations it created.
 */
export async function checkCreate(session: Session, request: Fields, bodyGiven: boolean): Promise<CreateOutcome> {
  const outgoing = createRequest(JSON.stringify(request));
  const exchange = await session.request('create', outgoing);
  const generated = bodyGiven
    ? undefined
    : { what: 'the generated body', remedy: 'pass --create-body with ids that exist there' };
  return checkCreateAnswer(session.verdicts, request, session.label(outgoing), exchange, generated);
}

/** Whether a valid create request was accepted, and the ids of the Evaluations it created. */
export interface CreateOutcome {
  accepted: boolean;
  ids: string[];
}

/** The checks of the answer to a valid create request; `unvouched`: a 4xx is no finding. */
export function checkCreateAnswer(
  verdicts: Verdicts,
  request: Fields,
  label: string,
  exchange: Exchange,
  unvouched: Unvouched | undefined,
): CreateOutcome {
  if (!acceptedSuccess(verdicts, 'create', label, exchange, unvouched)) return { accepted: false, ids: [] };
  const parsed = parseSuccessBody(verdicts, 'create', label, exchange);
  if (parsed) checkEvaluations(verdicts, request, parsed.data, label);
  const records = parsed && Array.isArray(parsed.data) ? parsed.data.filter(isObject) : [];
  return {
    accepted: true,
    ids: records.map((record) => record.id).filter((id): id is string => typeof id === 'string'),
  };
}

/**
 * The accepted create request again with other lm_providers_keys names: once with all of them (one request on a
 * deployment that keeps the spec); if that is refused, once with its own names as a control, then once per name
 * to say which ones.
 */
export async function checkProviderKeyNames(session: Session, request: Fields): Promise<void> {
  const used = keyNames(request);
  const names = otherKeyNames(used);
  const post = (body: Fields) => session.request('create', createRequest(JSON.stringify(body)));
  // A 4xx: a 429 is the deployment's pace, not a verdict on the body, and a 5xx has its own check.
  const refused = (exchange: Exchange) =>
    !exchange.failure &&
    exchange.status !== undefined &&
    exchange.status >= 400 &&
    exchange.status < 500 &&
    exchange.status !== 429;
  const together = await post(session.canaries.withNames(request, names));
  if (!refused(together)) {
    if (isSuccess(together)) session.verdicts.pass('create.provider-keys.accepted');
    return;
  }
  // The same body with its own names, again: a deployment that refuses a repeated create (a duplicate, a rate
  // limit) refuses it too, and that refusal says nothing about key names.
  const control = await post(request);
  if (refused(control)) {
    session.verdicts.skip(
      'create.provider-keys.accepted',
      `the same create request sent again was refused too (${control.status}): a refusal not about key names`,
    );
    return;
  }
  for (const name of names) {
    const alone = await post(session.canaries.withNames(request, [name]));
    const finding = `${createPath} with lm_providers_keys named ${JSON.stringify(name)} answered ${alone.status}, the same body with ${used.map((used) => JSON.stringify(used)).join(', ')} was accepted: a valid request refused`;
    session.verdicts.expect('create.provider-keys.accepted', refused(alone) ? `POST ${finding}` : undefined);
  }
}
