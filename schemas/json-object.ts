/** A JSON object (not null, not an array): what a schema's `properties` apply to. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
