/** Extra response headers, e.g. Retry-After or Allow. */
export type ExtraHeaders = Readonly<Record<string, string>>;

const encoder = new TextEncoder();

/**
 * A JSON body as bytes, serialized once. TextEncoder gives each body an array of its own: Buffer.from would slice
 * small bodies out of Node's shared 8 KiB pool, and a cached slice keeps its whole slab alive, which with thousands
 * of cached bodies is most of the process's memory. It is also what a browser has.
 */
export function serialize(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}
