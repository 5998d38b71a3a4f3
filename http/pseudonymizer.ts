import { matchPath } from '../api/match.js';
import { operation, operationTable, type OperationId } from '../api/operations.js';
import { schemas, type JsonSchema, type ResourceName } from '../schemas/index.js';
import { cloneJson } from '../schemas/json-object.js';
import { personalMark } from '../schemas/personal.js';
import { formatIssue, validate } from '../schemas/validators/index.js';
import { propertiesOf } from '../schemas/walk.js';
import { LruCache } from './lru.js';
import { bodySchema, mapStrings } from './personal-values.js';
import { Pseudonyms, type KeyedHash } from './pseudonym.js';
import { Redactor, type Secret } from './redaction.js';

/**
 * What `--pseudonymize` does to a recording before it is written (`proxy --record`, `fixtures --from`, the mock's
 * journal export): every personal value (schemas/personal.ts) becomes its pseudonym (http/pseudonym.ts), in bodies
 * by their schemas and in the path's id segment; every other string the schemas do not declare (a query, a header, an
 * error body, a field the spec does not list) has each personal value already met, in any encoding the redaction
 * knows (plain, JSON-escaped, percent-encoded, base64), replaced by its pseudonym. Strings the schemas declare and do
 * not mark (a state, an evaluation type, a date) are kept as they are.
 */

/** A value under this length is not swept from other texts: as with credentials, it cannot be told from other text. */
const minimumSweptLength = 4;

/** What a recorded request holds that a pseudonymizer rewrites (http/recorded-request.ts). */
export interface RequestParts {
  method: string;
  path: string;
  /** Absent from a record written before queries were kept. */
  query?: string;
  request: { headers?: Record<string, unknown>; body?: unknown; body_truncated?: boolean };
}

/** What became of one body or record: rewritten, or refused saying why (never with a value in it). */
export type Pseudonymized<T> = { value: T } | { refused: string };

/**
 * Whether an operation's path parameter is personal: it names the record the operation answers by that record's
 * `id` (the field `proxy --record` and the `fetch.body.id` check compare it with), and the schema marks that field.
 */
function personalParameter(id: OperationId): boolean {
  const { parameter, response } = operation(id);
  return parameter !== undefined && personalMark(propertiesOf(schemas[response.resource])?.id) === true;
}

/**
 * The operation a path's segments end with, from where: a recording may keep the path under a base path
 * (`/api/human-evaluations/<id>`), and its id is personal all the same.
 */
function routeOf(segments: readonly string[]): Route | undefined {
  for (let start = 1; start < segments.length; start++) {
    const match = matchPath(`/${segments.slice(start).join('/')}`);
    if (match.kind === 'operation') return { start, operation: match.operation, params: match.params };
  }
  return undefined;
}

/** Where a path's operation begins (its segment index), which it is, and its parameters decoded. */
interface Route {
  start: number;
  operation: OperationId;
  params: Record<string, string>;
}

/** The personal parameters of a route: each one's segment from where the operation begins, and its value. */
function personalParameters(route: Route): Array<{ index: number; value: string }> {
  if (!personalParameter(route.operation)) return [];
  return operationTable[route.operation].path
    .slice(1)
    .split('/')
    .flatMap((word, index) => {
      const name = /^\{(\w+)\}$/.exec(word)?.[1];
      const value = name === undefined ? undefined : route.params[name];
      return value === undefined ? [] : [{ index, value }];
    });
}

/** The personal values a request path holds in clear: its record id, wherever a base path puts the operation. */
export function personalPathValues(path: string): string[] {
  const route = routeOf(path.split('/'));
  return route === undefined ? [] : personalParameters(route).map(({ value }) => value);
}

/** The resource a recorded request's body is, by its operation: undefined for a request of none, or bodiless. */
function requestResource({ method, path }: RequestParts): ResourceName | undefined {
  const route = routeOf(path.split('/'));
  const definition = route === undefined ? undefined : operation(route.operation);
  return definition?.method === method ? definition.request : undefined;
}

/** The operation whose success a recorded answer is, or undefined for an answer of none, or not a 2xx. */
function successOf({ method, path }: Pick<RequestParts, 'method' | 'path'>, status: number) {
  const route = routeOf(path.split('/'));
  const definition = route === undefined ? undefined : operation(route.operation);
  return definition?.method === method && status >= 200 && status <= 299 ? definition : undefined;
}

/** The schema of a recorded answer: its operation's response (one record or an array), for a success. */
function answerSchema(recorded: Pick<RequestParts, 'method' | 'path'>, status: number): JsonSchema | undefined {
  const definition = successOf(recorded, status);
  return definition && bodySchema(definition.response.resource, definition.response.array);
}

/** Why a rewritten value fails its schema, naming the first issue (a place and a rule, never a value); or undefined. */
function schemaRefusal(resource: ResourceName, value: unknown): string | undefined {
  const check = validate(resource, value);
  const [issue] = check.issues;
  return check.valid || issue === undefined
    ? undefined
    : `its pseudonyms fail the ${resource} schema (${formatIssue(issue)})`;
}

export class Pseudonymizer {
  private readonly pseudonyms: Pseudonyms;
  /** The personal values met, each with its pseudonym as the sweep's replacement, the latest `remember` of them. */
  private readonly met: LruCache<string, Secret>;
  private secrets: readonly Secret[] | undefined;
  private readonly sweeper = new Redactor(() => (this.secrets ??= [...this.met.values()]));

  /** `remember`: how many personal values the sweep looks for (a proxy runs for days: the latest ones). */
  constructor(hash: KeyedHash, remember = 1_000) {
    this.pseudonyms = new Pseudonyms(hash);
    this.met = new LruCache(remember);
  }

  /** The pseudonym of a personal value, which the sweep then looks for in every other text. */
  pseudonymOf(original: string): string {
    const fake = this.pseudonyms.of(original);
    if (original.length >= minimumSweptLength && fake !== original && this.met.get(original) === undefined) {
      this.met.set(original, { value: original, placeholder: fake });
      this.secrets = undefined;
    }
    return fake;
  }

  /** A text no schema declares, with every personal value met replaced by its pseudonym, in any encoding. */
  sweep(text: string): string {
    // Shorter than any value met, it holds none: no search, and no rebuild of the forms for one.
    if (text.length < minimumSweptLength || this.met.values().next().done) return text;
    return this.sweeper.text(text, false);
  }

  /** Meets the personal values of a body without changing it: a recording read whole first is swept for them all. */
  learn(schema: JsonSchema | undefined, value: unknown): void {
    mapStrings(schema, value, (text, kind) => {
      if (kind === 'personal') this.pseudonymOf(text);
      return text;
    });
  }

  /** Meets the personal values of a recorded request: its path's id, its body's by the operation's schema. */
  learnRequest(recorded: RequestParts): void {
    // Meeting is all: a sweep of the other segments here would rebuild the sweep's forms at each newly met value.
    for (const value of personalPathValues(recorded.path)) this.pseudonymOf(value);
    const resource = requestResource(recorded);
    if (resource !== undefined) this.learn(schemas[resource], recorded.request.body);
  }

  /**
   * A body read by its schema (undefined: none), rewritten in place: its personal strings first, so the sweep of
   * the others knows this body's own values.
   */
  body(schema: JsonSchema | undefined, value: unknown): unknown {
    const personal = mapStrings(schema, value, (text, kind) => (kind === 'personal' ? this.pseudonymOf(text) : text));
    return mapStrings(schema, personal, (text, kind) => (kind === 'undeclared' ? this.sweep(text) : text));
  }

  /**
   * A record of a resource rewritten in place, and validated again: refused, naming the first issue, when its
   * pseudonyms fail the schema (a pattern or format its original met).
   */
  record<T>(resource: ResourceName, value: T, array = false): Pseudonymized<T> {
    const rewritten = this.body(bodySchema(resource, array), value) as T;
    const items = array && Array.isArray(rewritten) ? rewritten : [rewritten];
    const refused = items.map((item) => schemaRefusal(resource, item)).find((reason) => reason !== undefined);
    return refused === undefined ? { value: rewritten } : { refused };
  }

  /**
   * A request path with its record id's pseudonym where the operation's template has the id (after any base path:
   * `/api/human-evaluations/<id>`), a trailing slash kept; every other segment but the operation's own words swept.
   */
  path(path: string): string {
    const segments = path.split('/');
    const route = routeOf(segments);
    if (route === undefined) return segments.map((segment) => this.sweep(segment)).join('/');
    const tail = segments.slice(route.start);
    for (const { index, value } of personalParameters(route)) {
      const fake = this.pseudonymOf(value);
      if (fake !== value) tail[index] = encodeURIComponent(fake);
    }
    return [...segments.slice(0, route.start).map((segment) => this.sweep(segment)), ...tail].join('/');
  }

  /**
   * Meets the personal values of an answer's text (a success of an operation, by its response schema): a proxy keeps
   * the request's line after its answer, so the line is swept of what the answer holds too. Text that is not JSON
   * holds nothing to meet.
   */
  learnAnswer(recorded: Pick<RequestParts, 'method' | 'path'>, status: number, text: string): void {
    const schema = answerSchema(recorded, status);
    if (schema === undefined) return;
    try {
      this.learn(schema, JSON.parse(text));
    } catch {
      // Not JSON: the judge has said so; nothing here is a record.
    }
  }

  /**
   * The answer a recorded request got, rewritten in place: a success of an operation by its response schema, and
   * validated again as a record is; any other answer (an error body) swept.
   */
  answer(recorded: Pick<RequestParts, 'method' | 'path'>, status: number, value: unknown): Pseudonymized<unknown> {
    const definition = successOf(recorded, status);
    if (definition === undefined) return { value: this.body(undefined, value) };
    const { resource, array } = definition.response;
    return this.record(resource, value, array);
  }

  /**
   * A recorded request (http/recorded-request.ts) rewritten into a new one, its body copied first: its path, its body
   * by the operation's request schema (a body a recorder kept as text swept), then its query and header values
   * swept. A body valid for its schema before stays valid after, or the request is refused.
   */
  request<T extends RequestParts>(recorded: T): Pseudonymized<T> {
    const path = this.path(recorded.path);
    const resource = requestResource(recorded);
    const { body } = recorded.request;
    const wasValid = resource !== undefined && validate(resource, body).valid;
    const rewritten =
      typeof body === 'string'
        ? this.sweep(body)
        : this.body(resource === undefined ? undefined : schemas[resource], cloneJson(body));
    const refused = wasValid ? schemaRefusal(resource, rewritten) : undefined;
    if (refused !== undefined) return { refused };
    const headers = Object.fromEntries(
      Object.entries(recorded.request.headers ?? {}).map(([name, value]) => [
        name,
        typeof value === 'string' ? this.sweep(value) : value,
      ]),
    );
    return {
      value: {
        ...recorded,
        path,
        ...(typeof recorded.query === 'string' ? { query: this.sweep(recorded.query) } : {}),
        request: { ...recorded.request, headers, body: rewritten },
      },
    };
  }
}
