import type { Exchange } from '../../http/exchange.js';

/** Where in a response (body, header names and values) any of the submitted secret values appears. */
export function echoPlaces(values: readonly string[], exchange: Exchange): string[] {
  const places: string[] = [];
  if (values.some((value) => exchange.body.includes(value))) places.push('the body');
  for (const [name, raw] of Object.entries(exchange.headers)) {
    const text = Array.isArray(raw) ? raw.join(', ') : String(raw ?? '');
    if (values.some((value) => text.includes(value) || name.includes(value))) places.push(`header ${name}`);
  }
  return places;
}
