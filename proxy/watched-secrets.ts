import { credentialField } from '../api/credentials.js';
import { LruCache } from '../http/lru.js';
import { providerKeyValues, secretPlaceholder } from '../http/placeholders.js';
import { secretSpans, type Secret } from '../http/redaction.js';

/**
 * Secrets seen in requests, watched for in every answer and redacted from every output, one per value. Only the latest
 * `max` are kept, so a proxy that runs for days holds a bounded list; as with header values, a value under 4
 * characters is not watched.
 */
export class Watched {
  private readonly secrets: LruCache<string, Secret>;

  constructor(max = 1_000) {
    this.secrets = new LruCache(max);
  }

  add(secrets: readonly Secret[]): void {
    for (const secret of secrets) if (secret.value.length >= 4) this.secrets.set(secret.value, secret);
  }

  all(): Secret[] {
    return [...this.secrets.values()];
  }

  values(): string[] {
    return [...this.secrets.keys()];
  }
}

/** Every provider key a create request carries (http/placeholders.ts reads where they are). */
export function providerKeys(request: unknown): Secret[] {
  return providerKeyValues(request).map((value) => ({ value, placeholder: secretPlaceholder }));
}

/** String literals of a JSON text, escapes and all: `"a\"b"` is one. */
const stringLiteral = /"((?:[^"\\]|\\.)*)"/g;

/** How much of an unreadable body after each lm_providers_keys is searched for its keys. */
const keysSpan = 4096;

/**
 * The keys an unreadable body may still hold, found the way a lenient reader would find them: every string literal
 * in the object that follows each lm_providers_keys, its name written in any form. Found or not, the body is never
 * shown.
 */
export function keysInUnreadable(text: string): Secret[] {
  const keys: Secret[] = [];
  for (const field of secretSpans(text, [credentialField])) {
    const start = field.end;
    const span = text.slice(start, start + keysSpan);
    const open = span.indexOf('{');
    const close = span.indexOf('}', open);
    const object = open < 0 ? '' : span.slice(open + 1, close < 0 ? span.length : close);
    for (const [, literal] of object.matchAll(stringLiteral)) {
      let value = literal as string;
      try {
        value = JSON.parse(`"${value}"`) as string;
      } catch {
        // Kept as written: the echo would be of these characters.
      }
      keys.push({ value, placeholder: secretPlaceholder });
    }
  }
  return keys;
}
