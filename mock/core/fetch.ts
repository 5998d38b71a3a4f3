import type { BodySource, MockAnswer, MockRequest } from './request-answer.js';
import type { MockCore } from './handle.js';
import { undecodable, unsupportedEncoding } from './request-body.js';

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

/** A body sent with a Content-Encoding, inflated as body-parser would (gzip, deflate) when the core asks for it. */
function decoded(bytes: Uint8Array, encoding: string): BodySource {
  return async () => {
    if (encoding !== 'gzip' && encoding !== 'deflate') throw unsupportedEncoding;
    try {
      const stream = new Blob([bytes as Uint8Array<ArrayBuffer>])
        .stream()
        .pipeThrough(new DecompressionStream(encoding));
      return new Uint8Array(await new Response(stream).arrayBuffer());
    } catch {
      throw undecodable;
    }
  };
}

/**
 * A Fetch `Request` as the core reads it. The body is read here: a fetch body is already in memory, and its length
 * stands in for the Content-Length header that a Request object does not carry.
 */
export async function mockRequestOf(request: Request): Promise<MockRequest> {
  const headers: Record<string, string> = Object.fromEntries(request.headers);
  const body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
  if (body !== undefined && body.length > 0 && headers['content-length'] === undefined)
    headers['content-length'] = String(body.length);
  const encoding = headers['content-encoding']?.trim().toLowerCase() ?? 'identity';
  const source = body === undefined || encoding === 'identity' ? body : decoded(body, encoding);
  return { method: request.method, url: request.url, headers, body: source };
}

/** The core behind the Fetch API: a `Request` in, a `Response` out (MSW handlers, service workers, edge runtimes). */
export async function handleFetch(core: MockCore, request: Request): Promise<Response> {
  const answer = await core.handle(await mockRequestOf(request));
  return toResponse(answer, request.method);
}
