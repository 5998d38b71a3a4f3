import type { IncomingHttpHeaders } from 'node:http';
import { operationByKey, type OperationKey } from '../../api/operations.js';
import { mediaTypeOf } from '../../http/media-type.js';

/** An answer as a frontend receives it, whoever gave it: the deployment (an exchange) or the mock core. */
export interface ComparedAnswer {
  status?: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** Same-origin locations followed on the way. */
  redirects: readonly string[];
}

/** Whether a field holds null or a value; both when its array's items differ. */
type Filled = 'null' | 'value' | 'both';

/**
 * What a frontend can see of one answer beyond its data: where the spec says "not shown", the forms a client's code
 * hard-codes (a status, an error's shape, a date's form, an id's pattern). Names, numbers and texts are left out.
 */
export interface Facets {
  status: string;
  contentType: string;
  /** Followed redirects: `none` or how many. */
  redirects: string;
  /** An error answer's body: FastAPI's `{"detail": str}`, its 422 list (pydantic 1 or 2 entries), or other. */
  errorShape?: string;
  /**
   * An error answer's words, as an error view shows them: the `detail` string, or each 422 entry's type, location and
   * message in order. The values a request sent (pydantic 2's `input`) and documentation links are left out.
   */
  errorWording?: string;
  /** A success's Evaluations: how many a create answered. */
  evaluations?: number;
  /** The states of the Evaluations a create answered. */
  createdStates?: string;
  /** The styles of the ids of a success body (`id`, `*_id`, `*_ids`). */
  idStyles?: string;
  /** The forms of its date-times (`*_at`, `timestamp`). */
  dateForms?: string;
  /** Each field path (array items as `[]`) and whether it held null or a value. */
  fields?: Readonly<Record<string, Filled>>;
}

/** The form of a date-time string, as a client parsing it meets it. */
function dateForm(value: string): string {
  const match = /^\d{4}-\d\d-\d\d([Tt ])\d\d:\d\d(?::\d\d(?:\.\d+)?)?(.*)$/.exec(value);
  if (!match) return 'other';
  const [, separator, zone = ''] = match;
  if (separator === ' ') return zone === '' ? 'spaced, naive' : 'spaced';
  if (zone === '') return 'naive';
  if (/^[Zz]$/.test(zone)) return 'Z';
  return /^[+-]\d\d:?\d\d$/.test(zone) ? 'offset' : 'other';
}

const objectIdShape = /^[0-9a-f]{24}$/i;
const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-([0-9a-f])[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An id's style by its version nibble (RFC 9562 §4.2): a frontend that checks `uuid.version === 7` or sorts ids as
 * time-ordered meets a v4 otherwise, so a UUIDv4 deployment must not read as a UUIDv7 one. The generators' own
 * `idStyleOf` says only which release an id's shape comes from, and so calls every UUID v7.
 */
function idStyle(value: string): string {
  if (objectIdShape.test(value)) return 'ObjectId';
  const version = uuidShape.exec(value)?.[1];
  if (version === undefined) return 'other';
  return version === '4' || version === '7' ? `UUIDv${version}` : 'UUID';
}

/** A value deeper than this is data a frontend renders, not a form it depends on: the walk stops there. */
const maxDepth = 12;
/** Nodes visited per body at most: a hostile body of a million items costs no more than a normal one. */
const maxNodes = 5_000;

interface Walked {
  ids: Set<string>;
  dates: Set<string>;
  fields: Record<string, Filled>;
}

function fill(fields: Record<string, Filled>, path: string, filled: 'null' | 'value'): void {
  const before = fields[path];
  fields[path] = before === undefined || before === filled ? filled : 'both';
}

/** The ids, dates and fields of a JSON value, bounded in depth and size. */
function walk(value: unknown): Walked {
  const walked: Walked = { ids: new Set(), dates: new Set(), fields: {} };
  let nodes = 0;
  const visit = (node: unknown, path: string, key: string, depth: number): void => {
    if (++nodes > maxNodes || depth > maxDepth) return;
    if (path !== '') fill(walked.fields, path, node === null ? 'null' : 'value');
    if (typeof node === 'string') {
      if (key === 'id' || /_ids?$/.test(key)) walked.ids.add(idStyle(node));
      if (/(_at|^timestamp)$/.test(key)) walked.dates.add(dateForm(node));
    } else if (Array.isArray(node)) {
      for (const item of node) visit(item, `${path}[]`, key, depth + 1);
    } else if (node !== null && typeof node === 'object') {
      for (const [name, item] of Object.entries(node)) visit(item, path ? `${path}.${name}` : name, name, depth + 1);
    }
  };
  visit(value, '', '', 0);
  return walked;
}

function parsed(body: string): { data: unknown } | undefined {
  try {
    return { data: JSON.parse(body) as unknown };
  } catch {
    return undefined;
  }
}

/** The error body's shape, in the words a frontend's error handling is written against. */
function errorShape(body: string): string {
  if (body.trim() === '') return 'empty';
  const read = parsed(body);
  if (!read) return 'not JSON';
  const { data } = read;
  if (data === null || typeof data !== 'object' || Array.isArray(data) || !('detail' in data)) return 'other JSON';
  const detail = (data as { detail: unknown }).detail;
  if (typeof detail === 'string') return '{"detail": string}';
  if (!Array.isArray(detail)) return '{"detail": other}';
  const entries = detail.filter((entry) => entry !== null && typeof entry === 'object') as Array<
    Record<string, unknown>
  >;
  if (entries.length !== detail.length || entries.some((entry) => !('loc' in entry && 'msg' in entry)))
    return '{"detail": [other entries]}';
  // pydantic 2 adds the value sent and a documentation link to each entry, and renames the types (`missing`).
  if (entries.some((entry) => 'input' in entry || 'url' in entry))
    return '{"detail": [{type, loc, msg, input}]} (pydantic 2)';
  return '{"detail": [{loc, msg, type}]} (pydantic 1)';
}

/** Entries of a 422 list worded at most, and characters of a `detail` string: a hostile body costs no more. */
const maxDetailText = 300;
const maxWordedEntries = 20;

/** The words of an error body (`errorWording`); undefined when it has no `detail` of FastAPI's kinds. */
function errorWording(body: string): string | undefined {
  const detail = (parsed(body)?.data as { detail?: unknown } | null | undefined)?.detail;
  if (typeof detail === 'string') return detail.length > maxDetailText ? `${detail.slice(0, maxDetailText)}…` : detail;
  if (!Array.isArray(detail)) return undefined;
  const entries = detail.slice(0, maxWordedEntries).map((entry: unknown) => {
    const { type, loc, msg } = (entry ?? {}) as { type?: unknown; loc?: unknown; msg?: unknown };
    const where = Array.isArray(loc) ? loc.map(String).join('.') : String(loc);
    return `${String(type)} at ${where}: ${String(msg)}`.slice(0, maxDetailText);
  });
  const more = detail.length > maxWordedEntries ? [`and ${detail.length - maxWordedEntries} more`] : [];
  return [...entries, ...more].join('; ');
}

const joined = (values: Set<string>) => [...values].sort().join(', ');

/** The facets of an answer to a request of this operation; an operation that answers an array, its count and states. */
export function facetsOf(answer: ComparedAnswer, operation: OperationKey): Facets {
  const status = answer.status;
  const facets: Facets = {
    status: status === undefined ? 'no answer' : String(status),
    contentType: mediaTypeOf(answer.headers['content-type']) ?? 'none',
    redirects: answer.redirects.length === 0 ? 'none' : `${answer.redirects.length} followed`,
  };
  if (status === undefined) return facets;
  if (status >= 400) {
    const wording = errorWording(answer.body);
    return { ...facets, errorShape: errorShape(answer.body), ...(wording !== undefined && { errorWording: wording }) };
  }
  if (status < 200 || status >= 300) return facets;
  const read = parsed(answer.body);
  if (!read) return facets;
  const walked = walk(read.data);
  if (walked.ids.size > 0) facets.idStyles = joined(walked.ids);
  if (walked.dates.size > 0) facets.dateForms = joined(walked.dates);
  facets.fields = walked.fields;
  if (operationByKey(operation).response.array && Array.isArray(read.data)) {
    facets.evaluations = read.data.length;
    const states = new Set(
      read.data.map((record: unknown) => {
        const value = (record as { status?: { value?: unknown } } | null)?.status?.value;
        return typeof value === 'string' ? value : 'none';
      }),
    );
    facets.createdStates = joined(states);
  }
  return facets;
}
