import type { Received } from '../../http/exchange.js';
import { readJsonBody } from '../../http/json-body.js';
import { pathOf, walkJson } from '../../http/json-walk.js';
import { containsSecret } from '../../http/redaction.js';
import { pointerOf } from '../../schemas/validators/json-pointer.js';

/** Places named per body: a body echoing a key in every item of a long array names the first few, then counts. */
const namedPlaces = 5;

/** A place a secret was echoed: in words (`the body at /detail/0/input/KEY`), and the part it is in (`body`). */
export interface EchoPlace {
  text: string;
  /** `body`, or `header <name>`: where a finding's cause says it was, never the pointer, which names the key. */
  part: string;
}

/**
 * Where in a JSON body a secret appears: the pointer of each string (or key) holding it, in document order. A body
 * that is not JSON, or holds the secret only across what it parses into, is "the body".
 */
function bodyPlaces(values: readonly string[], exchange: Received): string[] {
  const read = readJsonBody(exchange);
  if ('problem' in read) return ['the body'];
  const places: string[] = [];
  let found = 0;
  // A place is spelt only if it is named.
  const at = (place: () => string) => {
    if (found++ < namedPlaces) places.push(place());
  };
  // Walked without recursion: a body may nest a thousand levels deep. A container's names come before its members.
  walkJson(read.data, (value, key, holder) => {
    if (typeof value === 'string') {
      if (containsSecret(value, values)) at(() => `the body at ${pointerOf(pathOf(holder, key)) || '/'}`);
    } else if (value !== null && typeof value === 'object') {
      for (const name of Object.keys(value))
        if (containsSecret(name, values))
          at(() => `the body at ${pointerOf([...pathOf(holder, key), name])} (its name)`);
    }
  });
  if (found > namedPlaces) places.push(`${found - namedPlaces} more places in the body`);
  return places.length > 0 ? places : ['the body'];
}

/**
 * Where in a response (body, header names and values) any of the submitted secret values appears, in any encoding
 * the redaction knows (clear, JSON-escaped, URL-encoded, base64): an echo the report would redact is an echo. A JSON
 * body's places are JSON pointers, so the finding says which field to fix.
 */
export function echoPlaces(values: readonly string[], exchange: Received): EchoPlace[] {
  const places: EchoPlace[] = [];
  if (containsSecret(exchange.body, values))
    places.push(...bodyPlaces(values, exchange).map((text) => ({ text, part: 'body' })));
  for (const [name, raw] of Object.entries(exchange.headers)) {
    const text = Array.isArray(raw) ? raw.join(', ') : String(raw ?? '');
    if (containsSecret(`${name}: ${text}`, values)) places.push({ text: `header ${name}`, part: `header ${name}` });
  }
  return places;
}
