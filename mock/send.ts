import type { ServerResponse } from 'node:http';

/** Extra response headers, e.g. Retry-After or Allow. */
export type ExtraHeaders = Readonly<Record<string, string>>;

/**
 * Writes a JSON body that is already serialized. It skips res.send (type sniffing, ETag hashing, freshness checks),
 * which is most of what Express adds to a route: bodies here are cached or pre-serialized, so hashing them again on
 * every request would be the mock's largest cost.
 */
export function sendJson(res: ServerResponse, status: number, body: Buffer, headers?: ExtraHeaders): void {
  setJsonHeaders(res, status, body, headers);
  res.end(body);
}

/** Status and headers of a JSON answer, Content-Length included, before any byte is written. */
export function setJsonHeaders(res: ServerResponse, status: number, body: Buffer, headers?: ExtraHeaders): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', body.length);
  if (headers) for (const name in headers) res.setHeader(name, headers[name] as string);
}

/**
 * A body in a buffer of its own. Buffer.from would slice small bodies out of Node's shared 8 KiB pool, and a cached
 * slice keeps its whole slab alive: with thousands of cached bodies that is most of the process's memory.
 */
export function serialize(value: unknown): Buffer {
  const text = JSON.stringify(value);
  const body = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  body.write(text);
  return body;
}
