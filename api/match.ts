import { operationIds, operationTable, type OperationId } from './operations.js';

/** Where a path lands: on an operation (with its path parameters, decoded), or under the base path on none. */
export type PathMatch =
  | { kind: 'operation'; operation: OperationId; params: Record<string, string> }
  /** A parameter is not valid percent-encoded UTF-8. */
  | { kind: 'undecodable'; operation: OperationId }
  | { kind: 'unknown' };

interface CompiledPath {
  operation: OperationId;
  /** Literal segments as strings, parameters as `{ name }`. */
  segments: (string | { name: string })[];
}

const compiled: CompiledPath[] = operationIds.map((operation) => ({
  operation,
  segments: operationTable[operation].path
    .slice(1)
    .split('/')
    .map((segment) => (/^\{\w+\}$/.test(segment) ? { name: segment.slice(1, -1) } : segment)),
}));

function decodeSegment(raw: string): string | undefined {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** Where the path of a request URL starts, whether the URL is absolute or a path; -1 for an absolute URL with none. */
export function pathStart(url: string): number {
  return url.startsWith('/') ? 0 : url.indexOf('/', url.indexOf('//') + 2);
}

/** The path of a request URL without its query, whether the URL is absolute or a path (neither carries a fragment). */
export function pathOf(url: string): string {
  const start = pathStart(url);
  if (start < 0) return '/';
  const end = url.indexOf('?', start);
  return end < 0 ? url.slice(start) : url.slice(start, end);
}

/**
 * The path relative to a base path (`/api`), or undefined when the path is outside it. The base path matches whole
 * segments: `/api` covers `/api` and `/api/x`, not `/apix`.
 */
export function relativeToBase(path: string, basePath: string): string | undefined {
  if (basePath === '') return path;
  if (!path.startsWith(basePath) || (path.length > basePath.length && path[basePath.length] !== '/')) return undefined;
  return path.slice(basePath.length) || '/';
}

/**
 * Which operation a path (relative to the base path) names. Paths match case-sensitively, as Starlette's do; one
 * trailing slash is forgiven, as Express forgives it and FastAPI redirects it; each parameter is one non-empty segment.
 * The method is not looked at: a known path with another method is the caller's 405.
 */
export function matchPath(path: string): PathMatch {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const segments = trimmed.slice(1).split('/');
  // Plain loops: this runs on every request the mock answers, where a closure per candidate showed in the bench.
  for (const candidate of compiled) {
    if (candidate.segments.length !== segments.length) continue;
    const params = matchSegments(candidate.segments, segments);
    if (params === undefined) continue;
    if (params === null) return { kind: 'undecodable', operation: candidate.operation };
    return { kind: 'operation', operation: candidate.operation, params };
  }
  return { kind: 'unknown' };
}

/** The decoded parameters when the segments fit the template; undefined when not, null when one does not decode. */
function matchSegments(
  template: CompiledPath['segments'],
  segments: string[],
): Record<string, string> | null | undefined {
  let params: Record<string, string> | null = {};
  for (let index = 0; index < template.length; index++) {
    const expected = template[index] as CompiledPath['segments'][number];
    const actual = segments[index] as string;
    if (typeof expected === 'string') {
      if (expected !== actual) return undefined;
      continue;
    }
    if (actual === '') return undefined;
    const decoded = decodeSegment(actual);
    // Keep matching: a later literal that does not fit makes this no operation at all, not an undecodable one.
    if (decoded === undefined) params = null;
    else if (params) params[expected.name] = decoded;
  }
  return params;
}

/**
 * A parameter no request can carry as one path segment: `.` and `..`. A URL reads them as steps along the path, and
 * reads their percent-encodings (`%2e`, `.%2E`, ...) so too (WHATWG URL, "double-dot path segment"), so whatever the
 * encoding the request would reach another path than the operation's (`/api/human-evaluations/..` is `/api/`).
 */
export class PathParameterError extends Error {
  override name = 'PathParameterError';
}

/** Whether a decoded parameter is one a URL would read as a step along the path (`.`, `..`). */
export function isDotSegment(value: string): boolean {
  return value === '.' || value === '..';
}

/** The one line that refuses a dot parameter, naming it. */
export function dotSegmentRefusal(name: string, value: string): string {
  return `${name} '${value}' cannot be sent: a URL reads it as a step along the path, not as one segment`;
}

/**
 * The path of an operation with its parameters filled in, each percent-encoded as one segment (a `/`, `?`, `#` or `\\`
 * in an id stays inside it); a PathParameterError for `.` or `..`, which no encoding keeps one segment.
 */
export function pathFor(id: OperationId, params: Record<string, string> = {}): string {
  return operationTable[id].path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`pathFor(${id}): no value for {${name}}`);
    if (isDotSegment(value)) throw new PathParameterError(dotSegmentRefusal(name, value));
    return encodeURIComponent(value);
  });
}
