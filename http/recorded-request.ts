import { forcingScenarioKeys } from '../api/scenario-keys.js';
import { pathOf } from '../api/match.js';
import { isJsonObject as isObject } from '../schemas/json-object.js';
import { redactUrl } from './placeholders.js';

/**
 * One shape for a request evalkit recorded, written by the mock's journal export (`GET /__evalkit/requests`, which adds
 * fields of its own: docs/mock.md, "A journal entry") and by `evalkit proxy --record DIR` (a line of requests.jsonl),
 * and read back for `evalkit diff --traffic` and `evalkit contract --replay` (http/traffic.ts). Nothing in it is a
 * credential: both writers redact before they keep anything.
 */

/** The request's own part of a record. */
export interface RecordedPart {
  /** End-to-end headers, lower-case names, every credential's value its placeholder (`<AUTHORIZATION>`). */
  headers: Record<string, string>;
  /** JSON when kept whole, text otherwise; null for no body. */
  body: unknown;
  /** The body was cut or withheld: it cannot be sent again as it was. */
  body_truncated: boolean;
}

/** A recorded request as it is written. */
export interface RecordedRequestJson {
  method: string;
  /** The path as sent, without the query. */
  path: string;
  /** The query as sent, without its `?` ('' for none), each credential value its placeholder (`api_key=<API_KEY>`). */
  query: string;
  /** The answer's status, when there was one. */
  status?: number;
  /** The mock scenario the answer followed (the journal's). */
  scenario?: Record<string, string | number | boolean> | null;
  /** The fault that broke the answer on purpose (the journal's). */
  fault?: string | null;
  request: RecordedPart;
}

/** A request target (`/x?api_key=…`) as records keep it: its path, and its query with every credential redacted. */
export function recordedTarget(target: string): { path: string; query: string } {
  const safe = redactUrl(target);
  const start = safe.indexOf('?');
  return { path: pathOf(safe), query: start < 0 ? '' : safe.slice(start + 1) };
}

/** A recorded request as read back, whichever writer wrote it. */
export interface RecordedRequest {
  method: string;
  /** The path as sent, without the query. */
  path: string;
  /** As written ('' for a record written before queries were kept). */
  query: string;
  /** Its end-to-end headers, lower-case names, credentials as placeholders. */
  headers: Record<string, string>;
  /** The JSON value when the body was kept whole and is JSON, its text otherwise; undefined for no body. */
  body: unknown;
  /** The body was cut or withheld: it cannot be sent again as it was. */
  truncated: boolean;
  status?: number;
  /** The mock scenario keys that forced the answer (`code=503`), when any did: the answer says nothing of the API. */
  forcedBy?: string;
  /** Where the recording holds it (`journal.json: requests[3]`, `requests.jsonl line 7`): a body too long to print. */
  where?: string;
}

/** A traffic file or folder evalkit cannot read, or a record in it: the message names the problem. */
export class TrafficProblem extends Error {}

function texts(value: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  if (isObject(value))
    for (const [name, text] of Object.entries(value)) if (typeof text === 'string') headers[name.toLowerCase()] = text;
  return headers;
}

/** The forcing keys of a recorded scenario and fault as `code=503, fault=reset`; undefined when none forced it. */
function forcing(scenario: unknown, fault: unknown): string | undefined {
  const keys = isObject(scenario)
    ? forcingScenarioKeys
        .filter((key) => scenario[key] !== undefined && !(key === 'code' && scenario[key] === 200))
        .map((key) => `${key}=${String(scenario[key])}`)
    : [];
  if (typeof fault === 'string' && !keys.some((key) => key.startsWith('fault='))) keys.push(`fault=${fault}`);
  return keys.length > 0 ? keys.join(', ') : undefined;
}

/** Reads one written record (RecordedRequestJson, or an older one without `query`); `where` names it in a problem. */
export function recordedRequestOf(entry: unknown, where: string): RecordedRequest {
  if (!isObject(entry) || typeof entry.method !== 'string' || typeof entry.path !== 'string')
    throw new TrafficProblem(`${where} is not a recorded request (no method and path)`);
  const request = isObject(entry.request) ? entry.request : {};
  const forcedBy = forcing(entry.scenario, entry.fault);
  return {
    method: entry.method,
    path: entry.path,
    query: typeof entry.query === 'string' ? entry.query.replace(/^\?/, '') : '',
    headers: texts(request.headers),
    body: request.body ?? undefined,
    truncated: request.body_truncated === true,
    ...(typeof entry.status === 'number' ? { status: entry.status } : {}),
    ...(forcedBy ? { forcedBy } : {}),
    where,
  };
}
