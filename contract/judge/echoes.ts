import type { Exchange } from '../../http/exchange.js';
import { containsSecret } from '../../http/redaction.js';

/**
 * Where in a response (body, header names and values) any of the submitted secret values appears, in any encoding
 * the redaction knows (clear, JSON-escaped, URL-encoded, base64): an echo the report would redact is an echo.
 */
export function echoPlaces(values: readonly string[], exchange: Exchange): string[] {
  const places: string[] = [];
  if (containsSecret(exchange.body, values)) places.push('the body');
  for (const [name, raw] of Object.entries(exchange.headers)) {
    const text = Array.isArray(raw) ? raw.join(', ') : String(raw ?? '');
    if (containsSecret(`${name}: ${text}`, values)) places.push(`header ${name}`);
  }
  return places;
}
