import { seedFrom } from '../fixtures/generators/index.js';
import { providerKeyNames } from '../fixtures/generators/vocabulary.js';
import { declaredProperties } from '../schemas/index.js';
import type { Exchange } from './http-client.js';

/** The request field whose values are credentials (spec §4.2: "it is never echoed"). */
export const credentialField = 'lm_providers_keys';
if (!declaredProperties('CreateEvaluationRequest').includes(credentialField)) {
  throw new Error(`the create request schema no longer declares ${credentialField}`);
}

/** What a secret becomes wherever the suite prints or reproduces a request: the spec's own placeholder. */
export const secretPlaceholder = '<PROVIDER_KEY>';

/** What a header value becomes in any output: `Authorization` prints as `<AUTHORIZATION>`. */
export function headerPlaceholder(name: string): string {
  return `<${name.toUpperCase()}>`;
}

/**
 * Fake credentials, distinctive enough that finding one in a response can only mean it was echoed. Derived from the
 * seed, so a run is reproducible and a deployment that stored a canary of an earlier run is caught on read too.
 */
export class Canaries {
  private readonly values: string[] = [];
  /** Real credentials seen in passing traffic (the proxy), oldest first. */
  private readonly watched: string[] = [];

  constructor(private readonly seed: string) {}

  /** The index-th canary; the same few are reused across bodies, so scanning stays cheap over thousands of cases. */
  private value(index: number): string {
    while (this.values.length <= index) {
      const n = this.values.length;
      this.values.push(`evalkit-canary-${seedFrom('canary', this.seed, n).toString(16).padStart(8, '0')}${n.toString(16)}`);
    }
    return this.values[index] as string;
  }

  /**
   * The body with every credential replaced by a canary, and one canary added when it carries none: the
   * user's real keys are never sent, and every POST carries something to be caught echoing.
   */
  inject(body: Record<string, unknown>): Record<string, unknown> {
    const given = body[credentialField];
    const keys = given && typeof given === 'object' && !Array.isArray(given) ? Object.keys(given) : [];
    const names = keys.length > 0 ? keys : [providerKeyNames[0]];
    return { ...body, [credentialField]: Object.fromEntries(names.map((name, index) => [name, this.value(index)])) };
  }

  /**
   * A credential the proxy saw a client send: it is scanned for and redacted like a canary. Only the latest
   * `maxWatched` are kept, so a proxy that runs for days holds a bounded list.
   */
  watch(value: string, maxWatched = 1_000): void {
    // As with header values, replacing every short string would garble findings and protect nothing.
    if (value.length < 4 || this.watched.includes(value)) return;
    this.watched.push(value);
    if (this.watched.length > maxWatched) this.watched.shift();
  }

  all(): readonly string[] {
    return this.watched.length > 0 ? [...this.values, ...this.watched] : this.values;
  }

  /** Where in a response (body, header names) any canary appears. */
  echoes(exchange: Exchange): string[] {
    const values = this.all();
    const places: string[] = [];
    if (values.some((value) => exchange.body.includes(value))) places.push('the body');
    for (const [name, raw] of Object.entries(exchange.headers)) {
      const text = Array.isArray(raw) ? raw.join(', ') : String(raw ?? '');
      if (values.some((value) => text.includes(value) || name.includes(value))) places.push(`header ${name}`);
    }
    return places;
  }

  /** The text with every canary replaced by the placeholder, for printing and reproduction. */
  redact(text: string): string {
    return this.all().reduce((out, value) => out.split(value).join(secretPlaceholder), text);
  }
}
