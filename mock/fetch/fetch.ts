import type { BodySource, MockAnswer, MockRequest } from '../core/request-answer.js';
import type { MockCore } from '../core/handle.js';
import { ContentCodingError, readBounded } from '../../http/content-coding.js';
import { maxBodyBytes } from '../core/limits.js';
import { decodedBody, tooLarge } from '../core/request-body.js';

/** The bytes of an answer broken by a `truncate` fault: half the body, then a failed stream. */
function truncated(body: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(body.subarray(0, Math.floor(body.length / 2)));
      controller.error(new TypeError('evalkit mock: truncate fault'));
    },
  });
}

/**
 * An answer of the core as a Fetch Response; a `reset` fault is a network error, as fetch reports a dropped connection.
 */
export function toResponse(answer: MockAnswer, method: string): Response {
  if (answer.fault === 'reset') return Response.error();
  const body =
    method === 'HEAD' || answer.body === undefined
      ? null
      : answer.fault === 'truncate'
        ? truncated(answer.body)
        : answer.body;
  const headers = new Headers(answer.headers);
  if (answer.body !== undefined) headers.set('Content-Length', String(answer.body.length));

  // A Uint8Array is a valid body in every runtime; the cast spares the DOM typings, which this build does not load.
  return new Response(body as ConstructorParameters<typeof Response>[0], { status: answer.status, headers });
}

/** A fetch body's bytes; over the limit, a source the core gets its 413 from, the rest of the upload never read. */
async function bytesOf(body: ReadableStream<Uint8Array>): Promise<Uint8Array | BodySource> {
  try {
    return await readBounded(body, maxBodyBytes);
  } catch (error) {
    if (error instanceof ContentCodingError && error.kind === 'too-large')
      return () => {
        throw tooLarge;
      };
    throw error;
  }
}

/**
 * A Fetch `Request` as the core reads it. The body's bytes are read here, its length standing in for the
 * Content-Length header that a Request object does not carry; they are decoded from a Content-Encoding only when the
 * core asks for them (decodedBody, the bound the node:http adapter uses too).
 */
export async function mockRequestOf(request: Request): Promise<MockRequest> {
  const headers: Record<string, string> = Object.fromEntries(request.headers);
  const body = request.body === null ? undefined : await bytesOf(request.body);
  if (!(body instanceof Uint8Array)) return { method: request.method, url: request.url, headers, body };
  if (body.length > 0 && headers['content-length'] === undefined) headers['content-length'] = String(body.length);
  const encoded = headers['content-encoding'] !== undefined;
  const source: BodySource = encoded ? () => decodedBody(body, headers) : body;
  return { method: request.method, url: request.url, headers, body: source };
}

/**
 * Keeps the process alive until a delayed answer settles, as the socket of a real request would: the latency timer
 * is unref'd for the node:http server's shutdown, so without this a plain Node script (msw/node) whose fetch waits
 * out a latency would exit with the fetch pending.
 */
function heldOpen(pending: Promise<MockAnswer>): Promise<MockAnswer> {
  const hold = setInterval(() => {}, 2 ** 30);
  return pending.finally(() => clearInterval(hold));
}

/** The core behind the Fetch API: a `Request` in, a `Response` out (MSW handlers, service workers, edge runtimes). */
export async function handleFetch(core: MockCore, request: Request): Promise<Response> {
  const answer = core.handle(await mockRequestOf(request));
  return toResponse(answer instanceof Promise ? await heldOpen(answer) : answer, request.method);
}
