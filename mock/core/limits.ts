import { requiredProperties, schemas, type JsonSchema } from '../../schemas/index.js';
import type { Limit } from './pydantic-words.js';

/**
 * The mock's own limits. The spec shows no service-wide limits; these keep one request's cost bounded (a 1 MiB body
 * could otherwise ask for 40,000 variants times 40,000 evaluator configs, or hold 500,000 wrong list items that each
 * cost a validation problem) and are documented in docs/mock.md and docs/decisions.md.
 */
export const maxBodyBytes = 1024 * 1024;
/** Longer than any ObjectId or UUID by far, short enough that a cache of bodies keyed by id stays small. */
export const maxIdLength = 1024;
const maxListItems = 100;
/** lm_providers_keys: the service knows a dozen providers; a hundred leaves room without inviting a flood. */
const maxMapEntries = 100;
/** The create request nests three levels deep; anything far deeper is an attack or a bug, not a request. */
export const maxBodyDepth = 32;
/** Distinct generated bodies kept serialized: a UI's working set of ids, bounded whatever clients send. */
export const cachedBodies = 1_000;
/** A 422 lists this many problems and counts the rest, so its size never grows with the body. */
export const maxListedProblems = 100;
/**
 * Header fields in a request: a browser sends about twenty. Node keeps 2,000 and silently drops the rest, which would
 * let a Content-Type or Prefer past them go unseen; the mock refuses the request instead (431).
 */
export const maxHeaderFields = 100;
/** Time to receive a request's headers, and the whole request: a client sending a byte now and then is cut off. */
export const headersTimeoutMs = 30_000;
export const requestTimeoutMs = 30_000;

const requestProperties = Object.entries(schemas.CreateEvaluationRequest.properties as Record<string, JsonSchema>);
const required = new Set(requiredProperties('CreateEvaluationRequest'));
/**
 * The fields the limits apply to, read off the request schema: its required strings (ids), its lists (of ids), its
 * maps.
 */
const idFields = requestProperties
  .filter(([name, schema]) => schema.type === 'string' && required.has(name))
  .map(([name]) => name);
const listFields = requestProperties.filter(([, schema]) => schema.type === 'array').map(([name]) => name);
const mapFields = requestProperties
  .filter(([, schema]) => schema.type === 'object' && typeof schema.additionalProperties === 'object')
  .map(([name]) => name);

/** A value at `loc` (`body` or `path` first) longer than maxIdLength. */
export function tooLong(loc: Array<string | number>, input: string): Limit {
  return { kind: 'string_too_long', loc, input, limit: maxIdLength };
}

function tooMany(field: string, limit: number, actual: number, container: Limit['container']): Limit {
  return { kind: 'too_long', loc: ['body', field], input: `<${actual} items>`, limit, actual, container };
}

export interface LimitCheck {
  problems: Limit[];
  /**
   * A list or map holds more entries than its limit: its entries were not looked at, and schema validation must not
   * look at them either (each wrong item would cost a problem), so the answer is these problems alone.
   */
  overCount: boolean;
}

/**
 * The mock's limits on a create request, checked before schema validation and without it: only values of the right
 * type are measured (a wrong type is the schema's to report), and a list over its limit is not walked item by item.
 */
export function createRequestLimits(body: unknown): LimitCheck {
  const problems: Limit[] = [];
  let overCount = false;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { problems, overCount };
  const fields = body as Record<string, unknown>;
  for (const field of idFields) {
    const value = fields[field];
    if (typeof value === 'string' && value.length > maxIdLength) problems.push(tooLong(['body', field], value));
  }
  for (const field of listFields) {
    const list = fields[field];
    if (!Array.isArray(list)) continue;
    if (list.length > maxListItems) {
      overCount = true;
      problems.push(tooMany(field, maxListItems, list.length, 'List'));
    } else {
      for (const [index, id] of list.entries())
        if (typeof id === 'string' && id.length > maxIdLength) problems.push(tooLong(['body', field, index], id));
    }
  }
  for (const field of mapFields) {
    const map = fields[field];
    if (map === null || typeof map !== 'object' || Array.isArray(map)) continue;
    // for...in counts without building a key array as long as the attack.
    let entries = 0;
    for (const _key in map) entries++;
    if (entries > maxMapEntries) {
      overCount = true;
      problems.push(tooMany(field, maxMapEntries, entries, 'Dictionary'));
    }
  }
  return { problems, overCount };
}
