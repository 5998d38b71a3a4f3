import { credentialField } from '../../../api/credentials.js';
import { formatIssue, isDocumentedEvaluatorConfig, validate } from '../../../schemas/validators/index.js';
import { declaredProperties, requiredProperties } from '../../../schemas/index.js';
import { capped } from '../../../http/excerpt.js';
import type { Received } from '../../../http/exchange.js';
import { operationLabel, operationOfKey } from '../../../api/operations.js';
import { providerKeyNames } from '../../../generators/vocabulary.js';
import { defineCheck, finding, once, perItem, type Finding, type Judged } from '../define.js';
import { issuesCause } from '../finding-id.js';
import { echoPlaces } from '../echoes.js';
import { isJsonObject as isObject } from '../../../schemas/json-object.js';
import type { Fields, Observation } from '../observation.js';
import { nullsCause, responseChecks, statusSuccess } from './response.js';

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** A 4xx: a 429 is the deployment's pace, not a verdict on the body, and a 5xx has its own check. */
export function isRefusal(exchange: Received): boolean {
  const { status } = exchange;
  return !exchange.failure && status !== undefined && status >= 400 && status < 500 && status !== 429;
}

/** The create request a success answer must match, when the answer is an array to match it against. */
function matched(seen: Observation): { request: Fields; records: Fields[] } | undefined {
  const { role } = seen.sent;
  const parsed = seen.sent.operation === 'create' ? seen.data() : undefined;
  if (!parsed || !Array.isArray(parsed.data) || role.kind !== 'expected' || !role.request) return undefined;
  return { request: role.request, records: parsed.data.filter(isObject) };
}

/**
 * One Evaluation per requested variant: as many records as variants, each variant in exactly one record. Its cause
 * is whether there were fewer or more, never how many (the requests' variants vary).
 */
function perVariantFinding(request: Fields, records: Fields[], label: string): Finding | undefined {
  const requested = strings(request.variant_ids);
  const answered = records.flatMap((record) => strings(record.variant_ids));
  const missing = requested.filter((id) => answered.filter((other) => other === id).length !== 1);
  if (records.length === requested.length && missing.length === 0) return undefined;
  const notOnce = missing.length ? `; not in exactly one: ${missing.join(', ')}` : '';
  const count = records.length < requested.length ? 'fewer' : records.length > requested.length ? 'more' : 'as many';
  return finding(
    `${label}: ${records.length} Evaluation(s) for ${requested.length} requested variant(s)${notOnce}`,
    `${count} Evaluations than variants`,
    ...(missing.length ? ['a variant not in exactly one'] : []),
  );
}

/** Records of one answer that share an id: a client keying them by id keeps one and loses the others. */
function sharedIdFinding(records: ReadonlyArray<{ fields: Fields; where: string }>): Finding | undefined {
  const byId = new Map<string, string[]>();
  for (const { fields, where } of records)
    if (typeof fields.id === 'string') byId.set(fields.id, [...(byId.get(fields.id) ?? []), where]);
  const shared = [...byId].filter(([, places]) => places.length > 1);
  if (shared.length === 0) return undefined;
  return finding(
    shared
      .map(([id, places]) => `${places.length} Evaluations share the id ${JSON.stringify(id)} (${places.join(', ')})`)
      .join('; '),
  );
}

/** The request's ids an Evaluation does not carry: its finding, caused by which fields differ. */
function requestIdFinding(request: Fields, record: Fields, where: string): Finding | undefined {
  // testset_id is optional in an Evaluation: only a present one can differ.
  const differing = (['app_id', 'testset_id'] as const).filter(
    (field) => typeof record[field] === 'string' && record[field] !== request[field],
  );
  if (differing.length === 0) return undefined;
  const words = differing.map(
    (field) => `${where}: ${field} ${String(record[field])} is not the requested ${String(request[field])}`,
  );
  return finding(words.join('; '), ...differing);
}

interface AggregatedResult {
  config: unknown;
  /** Where the result's evaluator_config is, as a JSON pointer after the record's place. */
  at: string;
  /** The same in its record, its indices as `*`: what a cause names. */
  field: string;
}

/** Every aggregated result of the answer's records, in order. */
function aggregatedResults(seen: Observation): AggregatedResult[] | undefined {
  if (!matched(seen)) return undefined;
  return seen.objectRecords().flatMap(({ fields, where }) =>
    (Array.isArray(fields.aggregated_results) ? fields.aggregated_results : []).map((result: unknown, index) => ({
      config: isObject(result) ? result.evaluator_config : undefined,
      at: `${where}/aggregated_results/${index}/evaluator_config`,
      field: `/aggregated_results/${index}/evaluator_config`,
    })),
  );
}

/**
 * The fields an EvaluatorConfig declares and need not carry: the only ones a null can be a null optional of. A field
 * the spec does not list passes whatever it holds (decision 13), `null` included.
 */
const requiredConfigFields = new Set(requiredProperties('EvaluatorConfig'));
const optionalConfigFields = new Set(
  declaredProperties('EvaluatorConfig').filter((name) => !requiredConfigFields.has(name)),
);

/**
 * The optional fields of an evaluator_config sent as null, when leaving them out makes it the documented
 * EvaluatorConfig: a deployment that sends null optionals (`settings_values: null`), one cause the nulls check
 * reports, not an unknown alternative.
 */
function nullOptionalsOf(config: unknown): string[] | undefined {
  if (!isObject(config)) return undefined;
  const nulls = Object.keys(config).filter((name) => config[name] === null && optionalConfigFields.has(name));
  if (nulls.length === 0) return undefined;
  const rest = Object.fromEntries(Object.entries(config).filter(([name]) => !nulls.includes(name)));
  return isDocumentedEvaluatorConfig(rest) ? nulls : undefined;
}

/**
 * Why a config is not the documented EvaluatorConfig, and the config itself, as long as a finding may quote; caused
 * by the first rule it breaks, never by its values.
 */
function unknownConfigFinding(config: unknown, at: string): Finding {
  const [issue] = validate('EvaluatorConfig', config).issues;
  const why = issue ? ` (as EvaluatorConfig: ${formatIssue(issue)})` : '';
  return finding(
    `${at} matches no known alternative${why}: ${capped(JSON.stringify(config) ?? String(config), 300)}`,
    ...issuesCause('EvaluatorConfig', issue ? [issue] : []),
  );
}

/**
 * The create's nulls check, with the null optionals of evaluator_configs too: they sit in an anyOf, where the
 * schema's validation takes the undocumented alternative and sees no null.
 */
function withConfigNulls<C extends { id: string; code?: (seen: Observation) => Judged }>(check: C): C {
  if (!check.id.endsWith('.body.nulls') || !check.code) return check;
  const code = check.code;
  return {
    ...check,
    code: (seen: Observation): Judged => {
      const judged = code(seen);
      const configs = (aggregatedResults(seen) ?? []).flatMap(({ config, at, field }) =>
        (nullOptionalsOf(config) ?? []).map((name) =>
          finding(`${at}: optional ${name} sent as null`, ...nullsCause('Evaluation', [`${field}/${name}`])),
        ),
      );
      if (configs.length === 0 || (judged !== undefined && 'skip' in judged)) return judged;
      return [...(judged ?? []), ...configs];
    },
  };
}

/**
 * The aggregated results judged by `judge`: not applicable without a matched answer, skipped when there are none (the
 * service computes them in the background).
 */
function withAggregatedResults(seen: Observation, judge: (results: AggregatedResult[]) => Judged): Judged {
  const results = aggregatedResults(seen);
  if (!results) return undefined;
  if (results.length === 0)
    return { skip: 'aggregated_results empty: the service computes them in the background (not a failure)' };
  return judge(results);
}

/** The checks of the create operation, in the catalogue's order. */
export const createChecks = [
  ...responseChecks('create').map(withConfigNulls),
  statusSuccess('create', 'The given create request is answered with a 2xx.', '§4.2 request body (required)'),
  defineCheck({
    id: 'create.secrets.echo',
    operation: 'create',
    severity: 'error',
    title: `No submitted ${credentialField} value appears in any response, body or headers, error responses included.`,
    spec:
      `§4.2 "${credentialField} values ... a credential supplied by the caller per provider; it is never echoed" ` +
      '(in any answer, an error answer too)',
    // Every answer, whatever it was for; only an answer can be scanned: a request that got none proves nothing.
    code: (seen) => {
      if (seen.secrets.length === 0 || seen.status === undefined) return undefined;
      // One finding per place, worded alike whichever request it answered, so the report counts each place once.
      const operation = operationLabel(operationOfKey(seen.sent.operation));
      // Caused by where in which answers, never by the pointer: it names the key, and key names vary.
      const answers = `${Math.floor((seen.status ?? 0) / 100)}xx`;
      return echoPlaces(seen.secrets, seen.exchange).map(({ text, part }) =>
        finding(`${operation} answers echo a submitted ${credentialField} value in ${text}`, operation, answers, part),
      );
    },
  }),
  defineCheck({
    id: 'create.provider-keys.accepted',
    operation: 'create',
    severity: 'error',
    title:
      `A create request that is accepted is accepted with other ${credentialField} names too ` +
      '(well-known, lower case, digits, dashes, non-ASCII).',
    spec: `§4.2 ${credentialField} "object: arbitrary property names, string values" (a valid request refused)`,
    // With all the other names at once, a success passes and a refusal is for the run to narrow down, name by name.
    code: (seen) => {
      const { role } = seen.sent;
      if (role.kind !== 'key-names') return undefined;
      if (!role.alone) return seen.success ? [] : undefined;
      const { name, used } = role.alone;
      if (!isRefusal(seen.exchange)) return [];
      const names = used.map((other) => JSON.stringify(other)).join(', ');
      // The well-known name tried is one the body does not use, which varies with the body.
      const named = (providerKeyNames as readonly string[]).includes(name) ? 'a well-known provider key name' : name;
      return [
        finding(
          `${seen.label} with ${credentialField} named ${JSON.stringify(name)} answered ${seen.status}, ` +
            `the same body with ${names} was accepted: a valid request refused`,
          String(seen.status),
          named,
        ),
      ];
    },
  }),
  defineCheck({
    id: 'create.body.per-variant',
    operation: 'create',
    severity: 'warning',
    title: 'One Evaluation per requested variant.',
    spec: '§4.2 "builds evaluations for ... a list of variants"',
    code: (seen) => {
      const answer = matched(seen);
      return answer ? once(perVariantFinding(answer.request, answer.records, seen.label)) : undefined;
    },
  }),
  defineCheck({
    id: 'create.body.distinct-ids',
    operation: 'create',
    severity: 'warning',
    title: 'The Evaluations of one create answer have distinct ids.',
    spec: '§2.2 Evaluation.id (one Evaluation per requested variant: each its own record, so its own id)',
    code: (seen) => (matched(seen) ? once(sharedIdFinding(seen.objectRecords())) : undefined),
  }),
  defineCheck({
    id: 'create.body.request-ids',
    operation: 'create',
    severity: 'warning',
    title: "Each Evaluation's app_id and testset_id are the request's.",
    spec: '§4.2 "builds evaluations for an application ... and a test set"',
    code: (seen) => {
      const answer = matched(seen);
      if (!answer) return undefined;
      return perItem(seen.objectRecords(), ({ fields, where }) => requestIdFinding(answer.request, fields, where));
    },
  }),
  defineCheck({
    id: 'create.body.evaluator-configs',
    operation: 'create',
    severity: 'warning',
    title: 'Aggregated results only name requested evaluator configs.',
    spec: '§4.2 "aggregated results per evaluator configuration"',
    code: (seen) =>
      withAggregatedResults(seen, (results) => {
        const requested = new Set(strings(matched(seen)?.request.evaluators_configs));
        return perItem(
          results.filter(({ config }) => isDocumentedEvaluatorConfig(config)),
          ({ config, at }) => {
            const id = (config as Fields).id as string;
            return requested.has(id) ? undefined : finding(`${at}: config ${id} was not requested`);
          },
        );
      }),
  }),
  defineCheck({
    id: 'create.body.evaluator-config.known',
    operation: 'create',
    severity: 'warning',
    title: 'Each evaluator_config matches the documented EvaluatorConfig (the spec declares others it does not show).',
    spec: '§2.4 "declared as one of several alternatives (anyOf); only the shape above is given"',
    code: (seen) =>
      withAggregatedResults(seen, (results) =>
        perItem(results, ({ config, at }) =>
          isDocumentedEvaluatorConfig(config) || nullOptionalsOf(config) ? undefined : unknownConfigFinding(config, at),
        ),
      ),
  }),
  defineCheck({
    id: 'create.invalid.rejected',
    operation: 'create',
    severity: 'warning',
    title:
      'Invalid create requests (a rule broken, malformed JSON, a non-JSON Content-Type) are not answered with a 2xx.',
    spec: '§4.2 request body fields, types and required flags',
    code: (seen) => {
      const { role } = seen.sent;
      if (role.kind !== 'invalid' || !seen.complete) return undefined;
      const status = seen.status as number;
      return once(seen.success ? finding(role.accepted(status), ...role.cause, String(status)) : undefined);
    },
  }),
] as const;
