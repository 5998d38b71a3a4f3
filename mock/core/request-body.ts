import {
  ContentCodingError,
  contentCodings,
  decodeContent,
  type ContentCoding,
  type Decoders,
} from '../../http/content-coding.js';
import { pathOf, type JsonHolder, type JsonKey } from '../../http/json-walk.js';
import { isJsonRequestMediaType, mediaTypeOf } from '../../http/media-type.js';
import { announcesBody, headerValue, type MockRequest, type RequestHeaders } from './request-answer.js';
import { HttpProblem } from './errors.js';
import { maxBodyBytes, maxBodyDepth } from './limits.js';
import { pythonJsonError } from './python-json.js';

const unsupportedType = new HttpProblem(415, 'Content-Type must be application/json');
const unsupportedCharset = new HttpProblem(415, 'The request body must be UTF-8 (Content-Type charset=utf-8 or none)');
const notUtf8 = new HttpProblem(400, 'The request body is not valid UTF-8');
const tooDeep = new HttpProblem(400, `The request body nests deeper than ${maxBodyDepth} levels`);
export const tooLarge = new HttpProblem(413, `Request body is larger than the ${maxBodyBytes / 2 ** 20} MiB limit`);
const undecodable = new HttpProblem(400, 'The request body does not decode with its Content-Encoding');
// FastAPI's answer to a JSON route called without a body.
const missingBody = new HttpProblem(422, [{ loc: ['body'], msg: 'field required', type: 'value_error.missing' }]);

/**
 * Keys that reach Object.prototype when code copies a parsed body with assignments. JSON.parse itself makes them
 * plain own properties, but nothing downstream should have to be careful: they are refused at the door.
 */
const forbiddenKeys: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
/**
 * The service's operations refuse only `__proto__`, the one key an assignment turns into a prototype: the real service
 * reads `constructor` and `prototype` as any other name (a provider key name, say), and so must the mock.
 */
const serviceForbiddenKeys: ReadonlySet<string> = new Set(['__proto__']);

const utf8 = new TextDecoder('utf-8', { fatal: true });

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
  // A declared length over the limit, or a coding the mock cannot decode, is refused before a byte is read.
  if (Number(headerValue(request.headers, 'content-length')) > maxBodyBytes) throw tooLarge;
  codingsOf(request.headers);
}

/** The problem a ContentCodingError stands for: 413, 415 naming the coding, or 400. */
function codingProblem(error: unknown): unknown {
  if (!(error instanceof ContentCodingError)) return error;
  if (error.kind === 'too-large') return tooLarge;
  if (error.kind === 'undecodable') return undecodable;
  return new HttpProblem(415, `Content-Encoding of the request body: ${error.message}`);
}

function codingsOf(headers: RequestHeaders): ContentCoding[] {
  try {
    return contentCodings(headerValue(headers, 'content-encoding'));
  } catch (error) {
    throw codingProblem(error);
  }
}

/**
 * A body as its adapter received it, decoded from its Content-Encoding within the 1 MiB limit, every layer: the one
 * bound of both adapters (http/content-coding.ts). Rejects with the 413, 415 or 400 the body stands for. `decoders`:
 * the runtime's Compression Streams by default; the node:http adapter adds br.
 */
export async function decodedBody(
  bytes: Uint8Array,
  headers: RequestHeaders,
  decoders?: Decoders,
): Promise<Uint8Array> {
  if (bytes.length > maxBodyBytes) throw tooLarge;
  const codings = codingsOf(headers);
  if (codings.length === 0) return bytes;
  try {
    return await decodeContent(bytes, codings, maxBodyBytes, decoders);
  } catch (error) {
    throw codingProblem(error);
  }
}

/** Where a value (or the holder itself) sits, as the JSON Pointer-like path the 400 names (`/` for the root). */
function locationOf(holder: JsonHolder | undefined, key?: JsonKey): string {
  return `/${pathOf(holder, key).join('/')}`.slice(0, 200);
}

/** A UTF-16 code unit of a pair without its partner: JSON's `\ud800` escape allows it, Unicode text does not. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Only an escape can put a surrogate in a string decoded from valid UTF-8: without one, strings are not searched. */
const surrogateEscape = /\\u[dD][89a-fA-F]/;

/**
 * What a scalar holds that the service could not take back as it was sent: a number past a 64-bit float (`1e400`,
 * which JSON.parse makes Infinity and JSON.stringify null) or a lone surrogate (which no UTF-8 encoder writes).
 */
function scalarProblem(value: unknown, surrogates: boolean): string | undefined {
  if (value === Infinity || value === -Infinity) return 'a number out of range (past a 64-bit float)';
  if (surrogates && typeof value === 'string' && loneSurrogate.test(value))
    return 'a string with an unpaired surrogate (a \\ud800-\\udfff escape without its pair)';
  return undefined;
}

/**
 * The first forbidden key, over-deep value or unusable scalar, walked without recursion so no input can exhaust the
 * stack. Only objects and arrays go on the stack, and array items are read by index: a list of 500,000 numbers
 * allocates nothing here. Its own loop rather than http/json-walk.ts's walk, whose visitor call per value costs this
 * hot path a quarter more CPU on such a list; it shares the walk's holders, so a location is spelt only when reported.
 */
function structureProblem(
  root: unknown,
  surrogates: boolean,
  forbidden: ReadonlySet<string> = forbiddenKeys,
): HttpProblem | undefined {
  const rootProblem = scalarProblem(root, surrogates);
  if (rootProblem) return new HttpProblem(400, `The request body is ${rootProblem}`);
  if (!isContainer(root)) return undefined;
  const stack: JsonHolder[] = [{ value: root, depth: 0, parent: undefined, key: undefined }];
  const at = (problem: string, container: JsonHolder, key: JsonKey) =>
    new HttpProblem(400, `The request body has ${problem} at ${locationOf(container, key)}`);
  for (let container = stack.pop(); container; container = stack.pop()) {
    if (container.depth >= maxBodyDepth) return tooDeep;
    const { value, depth } = container;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        const item: unknown = value[index];
        if (isContainer(item)) stack.push({ value: item, depth: depth + 1, parent: container, key: index });
        else {
          const problem = scalarProblem(item, surrogates);
          if (problem) return at(problem, container, index);
        }
      }
      continue;
    }
    for (const key of Object.keys(value)) {
      if (forbidden.has(key))
        return new HttpProblem(400, `The request body has a forbidden key '${key}' at ${locationOf(container)}`);
      if (surrogates && loneSurrogate.test(key))
        return new HttpProblem(
          400,
          `The request body has a key with an unpaired surrogate at ${locationOf(container)}`,
        );
      const item = (value as Record<string, unknown>)[key];
      if (isContainer(item)) stack.push({ value: item, depth: depth + 1, parent: container, key });
      else {
        const problem = scalarProblem(item, surrogates);
        if (problem) return at(problem, container, key);
      }
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
  const problem = structureProblem(body, surrogateEscape.test(text));
  if (problem) throw problem;
  return body;
}

/**
 * The body of a JSON operation: 415 for another media type, charset or Content-Encoding, 413 over 1 MiB, 400 for bytes
 * that are not UTF-8 or text that is not JSON, 400 for forbidden keys, over-deep nesting, numbers past a float or lone
 * surrogates, 422 for no body at all. The adapter reads the bytes (decodedBody) only after the media type passed.
 * Duplicate keys: the last wins, as in Python's json and so in FastAPI.
 */
export function readJsonBody(request: MockRequest): unknown | Promise<unknown> {
  requireJson(request);
  const source = request.body;
  const raw = typeof source === 'function' ? source() : (source ?? new Uint8Array(0));
  return raw instanceof Promise ? raw.then(parse) : parse(raw);
}

/**
 * A service operation's body as FastAPI 0.109.2 reads it (fastapi/routing.py), whatever the release: no bytes is no
 * body; a body with no Content-Type, `application/json` or any `application/*+json` (charset aside) is parsed as JSON
 * by Python's json, whose refusal is a 422 `json_invalid`; a body of any other type is validated as it is, a text, and
 * refused by the model. Only the mock's own bounds answer otherwise (413, 415 for a Content-Encoding it cannot decode,
 * 400 for bytes no JSON decoder reads, nesting past 32 levels, forbidden keys, lone surrogates, numbers past a float).
 */
export type ServiceBody =
  | { kind: 'json'; value: unknown }
  | { kind: 'none' }
  | { kind: 'text'; text: string }
  | { kind: 'refused'; position: number; error: string };

/** FastAPI's answer to a body whose bytes Python cannot decode (its `except Exception` around `request.json()`). */
const unparsable = new HttpProblem(400, 'There was an error parsing the body');

/** Whether FastAPI parses a body of this Content-Type as JSON: none given, application/json or application/*+json. */
function fastApiReadsJson(contentType: string | undefined): boolean {
  if (contentType === undefined) return true;
  const [main, sub = ''] = (mediaTypeOf(contentType) ?? '').split('/');
  return main === 'application' && (sub === 'json' || sub.endsWith('+json'));
}

const utf16le = new TextDecoder('utf-16le', { fatal: true });
/** A body of another media type, as FastAPI echoes it back: decoded, a byte that is not UTF-8 replaced. */
const lenientUtf8 = new TextDecoder();
const utf16be = new TextDecoder('utf-16be', { fatal: true });

/** Bytes as Python's json.loads decodes them (json.detect_encoding): UTF-8 with or without a BOM, or UTF-16. */
function pythonText(raw: Uint8Array): string {
  const [first, second, third, fourth] = raw;
  try {
    if (first === 0xef && second === 0xbb && raw[2] === 0xbf) return utf8.decode(raw.subarray(3));
    if (first === 0xff && second === 0xfe && !(third === 0 && fourth === 0)) return utf16le.decode(raw.subarray(2));
    if (first === 0xfe && second === 0xff) return utf16be.decode(raw.subarray(2));
    // UTF-32 (a BOM or three zero bytes of four) is Python's too, but no runtime here decodes it: refused as unread.
    if (raw.length >= 4 && (first === 0 || second === 0)) {
      if ((first === 0 && second === 0) || (second === 0 && third === 0 && fourth === 0)) throw unparsable;
      return (first === 0 ? utf16be : utf16le).decode(raw);
    }
    return utf8.decode(raw);
  } catch (error) {
    if (error instanceof HttpProblem) throw error;
    throw unparsable;
  }
}

function readService(raw: Uint8Array, json: boolean): ServiceBody {
  if (raw.length > maxBodyBytes) throw tooLarge;
  if (raw.length === 0) return { kind: 'none' };
  if (!json) return { kind: 'text', text: lenientUtf8.decode(raw) };
  const text = pythonText(raw);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const refusal = pythonJsonError(text);
    // What Python reads and JavaScript does not (NaN, Infinity) is past what the mock reads.
    if (!refusal) throw new HttpProblem(400, 'The request body is JSON only Python reads (NaN or Infinity)');
    return { kind: 'refused', position: refusal.pos, error: refusal.msg };
  }
  const problem = structureProblem(body, surrogateEscape.test(text), serviceForbiddenKeys);
  if (problem) throw problem;
  return { kind: 'json', value: body };
}

/** The body of a service operation, read as FastAPI reads it (ServiceBody); 413, 415 or 400 for the mock's bounds. */
export function readServiceBody(request: MockRequest): ServiceBody | Promise<ServiceBody> {
  const json = fastApiReadsJson(headerValue(request.headers, 'content-type'));
  if (Number(headerValue(request.headers, 'content-length')) > maxBodyBytes) throw tooLarge;
  codingsOf(request.headers);
  const source = request.body;
  const raw = typeof source === 'function' ? source() : (source ?? new Uint8Array(0));
  return raw instanceof Promise ? raw.then((bytes) => readService(bytes, json)) : readService(raw, json);
}
