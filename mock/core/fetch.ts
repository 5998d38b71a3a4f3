import type { MockCore } from './handle.js';
import type { MockAnswer } from './exchange.js';

/** The bytes of an answer broken by a `truncate` fault: half the body, then a failed stream. */
function truncated(body: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(body.subarray(0, Math.floor(body.length / 2)));
      controller.error(new TypeError('evalkit mock: truncate fault'));
    },
  });
}

/** An answer of the core as a Fetch Response; a `reset` fault is a network error, as fetch reports a dropped connection. */
export function toResponse(answer: MockAnswer, method: string): Response {
  if (answer.fault === 'reset') return Response.error();
  const body = method === 'HEAD' || answer.body === undefined ? null : answer.fault === 'truncate' ? truncated(answer.body) : answer.body;
  const headers = new Headers(answer.headers);
  if (answer.body !== undefined) headers.set('Content-Length', String(answer.body.length));

  // A Uint8Array is a valid body in every runtime; the cast spares the DOM typings, which this build does not load.
  return new Response(body as ConstructorParameters<typeof Response>[0], { status: answer.status, headers });
}

/**
 * The core behind the Fetch API: a `Request` in, a `Response` out (MSW handlers, service workers, edge runtimes).
 * The body is read before the core sees the request: a fetch body is already in memory, and its length stands in for
 * the Content-Length header that a Request object does not carry.
 */
export async function handleFetch(core: MockCore, request: Request): Promise<Response> {
  const headers: Record<string, string> = Object.fromEntries(request.headers);
  const body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
  if (body !== undefined && body.length > 0 && headers['content-length'] === undefined) headers['content-length'] = String(body.length);
  const answer = await core.handle({ method: request.method, url: request.url, headers, body });
  return toResponse(answer, request.method);
}
