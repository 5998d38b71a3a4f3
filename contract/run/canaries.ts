import { seedFrom } from '../../generators/index.js';
import { providerKeyNames } from '../../generators/vocabulary.js';
import { credentialField } from '../../api/credentials.js';
import { providerKeyValues } from '../../http/placeholders.js';

/** A create body's lm_providers_keys map: empty when it carries none, or something other than a map. */
function providerKeys(body: Record<string, unknown> | undefined): Record<string, unknown> {
  const given = body?.[credentialField];
  return given && typeof given === 'object' && !Array.isArray(given) ? (given as Record<string, unknown>) : {};
}

/** The lm_providers_keys names a create body carries. */
export function keyNames(body: Record<string, unknown>): string[] {
  return Object.keys(providerKeys(body));
}

/** The values of the user's own lm_providers_keys, at any depth: credentials, never sent and never printed. */
export function keyValues(body: Record<string, unknown> | undefined): string[] {
  return providerKeyValues(body);
}

/**
 * Other lm_providers_keys names a deployment must take, since the spec gives the map arbitrary property names: a
 * well-known provider the body does not name, and arbitrary ones (upper and lower case, digits and dashes,
 * non-ASCII). A release that accepts only its own provider list refuses them.
 */
export function otherKeyNames(used: readonly string[]): string[] {
  const wellKnown = providerKeyNames.find((name) => !used.includes(name));
  return [
    ...(wellKnown ? [wellKnown] : []),
    'MY_LLM_PROVIDER_KEY',
    'my_llm_provider_key',
    'provider-2-key',
    'clé_fournisseur_ü',
  ].filter((name) => !used.includes(name));
}

/**
 * Fake credentials, distinctive enough that finding one in a response can only mean it was echoed. Derived from the
 * seed, so a run is reproducible and a deployment that stored a canary of an earlier run is caught on read too.
 */
export class Canaries {
  private readonly values: string[] = [];

  constructor(private readonly seed: string) {}

  /** The index-th canary; the same few are reused across bodies, so scanning stays cheap over thousands of cases. */
  private value(index: number): string {
    while (this.values.length <= index) {
      const n = this.values.length;
      this.values.push(
        `evalkit-canary-${seedFrom('canary', this.seed, n).toString(16).padStart(8, '0')}${n.toString(16)}`,
      );
    }
    return this.values[index] as string;
  }

  /**
   * The body with every credential replaced by a canary, and one canary added when it carries none: the
   * user's real keys are never sent, and every POST carries something to be caught echoing.
   */
  inject(body: Record<string, unknown>): Record<string, unknown> {
    const keys = keyNames(body);
    return this.withNames(body, keys.length > 0 ? keys : [providerKeyNames[0] as string]);
  }

  /** The body with exactly these lm_providers_keys names, each holding a canary. */
  withNames(body: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
    return { ...body, [credentialField]: Object.fromEntries(names.map((name, index) => [name, this.value(index)])) };
  }

  all(): readonly string[] {
    return this.values;
  }
}
