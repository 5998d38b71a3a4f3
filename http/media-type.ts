/** The media type of a Content-Type value, lower-cased, without parameters. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase();
}

/** The media type of a message's Content-Type header. */
export function mediaType(headers: { 'content-type'?: string | undefined }): string | undefined {
  return mediaTypeOf(headers['content-type']);
}

/** application/json and the +json suffix types (problem+json and the like): what the contract accepts as JSON. */
export function isJsonMediaType(type: string | undefined): boolean {
  return type !== undefined && (type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type));
}

/**
 * The media types the mock reads a request body of as JSON: application/json and any `+json` type, as Express's
 * type-is reads them. It differs from isJsonMediaType on purpose, each side keeping its own answer: it takes any top
 * type (`text/x+json`) and the token characters `!#$&^` in a name, and refuses a `+` before the suffix
 * (`application/a+b+json`).
 */
export function isJsonRequestMediaType(type: string | undefined): boolean {
  return (
    type !== undefined && (type === 'application/json' || /^[a-z0-9!#$&^_.-]+\/[a-z0-9!#$&^_.-]+\+json$/.test(type))
  );
}
