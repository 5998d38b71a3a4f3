import { isJsonRequestMediaType, mediaTypeOf } from '../../http/media-type.js';
import { headerValue, type MockRequest } from './request-answer.js';
import { HttpProblem } from './errors.js';
import { maxBodyBytes, maxBodyDepth } from './limits.js';

const unsupportedType = new HttpProblem(415, 'Content-Type must be application/json');
const unsupportedCharset = new HttpProblem(415, 'The request body must be UTF-8 (Content-Type charset=utf-8 or none)');
const notUtf8 = new HttpProblem(400, 'The request body is not valid UTF-8');
const tooDeep = new HttpProblem(400, `The request body nests deeper than ${maxBodyDepth} levels`);
export const tooLarge = new HttpProblem(413, 'Request body is larger than the 1 MiB limit');
export const unsupportedEncoding = new HttpProblem(
  415,
  'Content-Encoding of the request body is not supported (use identity, gzip, deflate or br)',
);
export const undecodable = new HttpProblem(400, 'The request body does not decode with its Content-Encoding');
// FastAPI's answer to a JSON route called without a body.
const missingBody = new HttpProblem(422, [{ loc: ['body'], msg: 'field required', type: 'value_error.missing' }]);

/**
 * Keys that reach Object.prototype when code copies a parsed body with assignments. JSON.parse itself makes them
 * plain own properties, but nothing downstream should have to be careful: they are refused at the door.
 */
const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype']);

const utf8 = new TextDecoder('utf-8', { fatal: true });

function announcesBody(request: MockRequest): boolean {
  return (
    request.headers['transfer-encoding'] !== undefined ||
    Number(headerValue(request.headers, 'content-length') ?? 0) > 0
  );
}

/**
 * 415 unless the request says JSON in UTF-8; checked before reading the body, so a wrong type costs no upload. A
 * request with no body is let through whatever its type: FastAPI never looks at the type of an empty body and answers
 * 422.
 */
function requireJson(request: MockRequest): void {
  if (!announcesBody(request)) return;
  const contentType = headerValue(request.headers, 'content-type');
  if (contentType === undefined || !isJsonRequestMediaType(mediaTypeOf(contentType))) throw unsupportedType;
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8' && charset.toLowerCase() !== 'utf8')
    throw unsupportedCharset;
  // A declared length over the limit is refused before a byte is read.
  if (Number(headerValue(request.headers, 'content-length') ?? 0) > maxBodyBytes) throw tooLarge;
}

/**
 * An object or array met in the walk, with the way back to the root so a location is spelt only when one is reported.
 */
interface Container {
  value: object;
  depth: number;
  parent: Container | undefined;
  key: string;
}

/** Where a container sits, as the JSON Pointer-like path the 400 names (`/` for the root). */
function locationOf(container: Container): string {
  const keys: string[] = [];
  for (let at = container; at.parent; at = at.parent) keys.push(at.key);
  return `/${keys.reverse().join('/')}`;
}

/**
 * The first forbidden key or over-deep value, walked without recursion so no input can exhaust the stack. Only objects
 * and arrays go on the stack, and array items are read by index: a list of 500,000 numbers allocates nothing here.
 */
function structureProblem(root: unknown): HttpProblem | undefined {
  if (!isContainer(root)) return undefined;
  const stack: Container[] = [{ value: root, depth: 0, parent: undefined, key: '' }];
  for (let container = stack.pop(); container; container = stack.pop()) {
    if (container.depth >= maxBodyDepth) return tooDeep;
    const { value, depth } = container;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        const item: unknown = value[index];
        if (isContainer(item)) stack.push({ value: item, depth: depth + 1, parent: container, key: String(index) });
      }
      continue;
    }
    for (const key of Object.keys(value)) {
      if (forbiddenKeys.has(key))
        return new HttpProblem(
          400,
          `The request body has a forbidden key '${key}' at ${locationOf(container).slice(0, 200)}`,
        );
      const item = (value as Record<string, unknown>)[key];
      if (isContainer(item)) stack.push({ value: item, depth: depth + 1, parent: container, key });
    }
  }
  return undefined;
}

function isContainer(value: unknown): value is object {
  return value !== null && typeof value === 'object';
}

function parse(raw: Uint8Array): unknown {
  if (raw.length > maxBodyBytes) throw tooLarge;
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw notUtf8;
  }
  if (text.trim() === '') throw missingBody;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    // V8's message quotes the input, which may hold a credential: only the position goes back.
    const position = /at position (\d+)/.exec((error as Error).message)?.[1];
    throw new HttpProblem(400, `The request body is not valid JSON${position ? ` (at position ${position})` : ''}`);
  }
  const problem = structureProblem(body);
  if (problem) throw problem;
  return body;
}

/**
 * The body of a JSON operation: 415 for another media type or charset, 413 over 1 MiB, 400 for bytes that are not
 * UTF-8 or text that is not JSON, 400 for forbidden keys or over-deep nesting, 422 for no body at all. The adapter
 * reads the bytes (and inflates a Content-Encoding) only after the media type passed.
 */
export function readJsonBody(request: MockRequest): unknown | Promise<unknown> {
  requireJson(request);
  const source = request.body;
  const raw = typeof source === 'function' ? source() : (source ?? new Uint8Array(0));
  return raw instanceof Promise ? raw.then(parse) : parse(raw);
}
