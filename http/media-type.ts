import type { IncomingHttpHeaders } from 'node:http';

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaType(headers: IncomingHttpHeaders): string | undefined {
  return headers['content-type']?.split(';')[0]?.trim().toLowerCase();
}

/** application/json and the +json suffix types (problem+json and the like). */
export function isJsonMediaType(type: string | undefined): boolean {
  return type !== undefined && (type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type));
}
