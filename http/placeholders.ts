import { credentialField } from '../api/credentials.js';
import { walkJson } from './json-walk.js';

/**
 * What a credential becomes wherever evalkit prints, stores or reproduces a request: the mock's journal, the
 * contract's reports and curl reproductions, the proxy's reports. One set of placeholders, so a reader learns them
 * once.
 */

/** What a provider key (an `lm_providers_keys` value) becomes: the spec's own placeholder. */
export const secretPlaceholder = '<PROVIDER_KEY>';

/** What a header value becomes in any output: `Authorization` prints as `<AUTHORIZATION>`. */
export function headerPlaceholder(name: string): string {
  return `<${name.toUpperCase()}>`;
}

/** Query parameters whose values are credentials (signed URLs, API keys in the query), compared case-insensitively. */
const credentialQueryNames = new Set([
  'token',
  'access_token',
  'api_key',
  'apikey',
  'api-key',
  'key',
  'sig',
  'signature',
  'password',
  'secret',
]);

export function isCredentialQueryName(name: string): boolean {
  return credentialQueryNames.has(name.toLowerCase());
}

/** Words that say a name (a header's, a query parameter's) is a credential's: X-Api-Key, X-Auth-Token, passwd… */
const credentialWords = /key|token|secret|auth|session|passw|credential/i;

/** A name that says what a credential is, whatever it names: the rule for query parameters beyond the list above. */
function isCredentialName(name: string): boolean {
  return credentialWords.test(name);
}

/**
 * Header names whose values are credentials: Authorization, Proxy-Authorization, X-Api-Key, X-Session-Id, Cookie,
 * Set-Cookie… The one rule for the journal, the proxy's reports and its reproductions.
 */
export function isCredentialHeaderName(name: string): boolean {
  return isCredentialName(name) || /cookie/i.test(name);
}

/** A query parameter whose value is a credential: a name of isCredentialQueryName, or one that says so. */
export function isCredentialParameter(name: string): boolean {
  return isCredentialQueryName(name) || isCredentialName(name);
}

/** A query part's parameter name (`api%5Fkey=x` → `api_key`), decoded as URLSearchParams decodes it. */
export function parameterName(part: string): string {
  return new URLSearchParams(part.split('=', 1)[0] ?? '').keys().next().value ?? '';
}

/**
 * The URL with each credential query value replaced by its placeholder (`?api_key=<API_KEY>`): the names of
 * isCredentialQueryName, and any name that says what a credential is, as for headers. Names are compared decoded
 * (`api%5Fkey` is `api_key`); every other part of the query is kept as sent.
 */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  let redacted = false;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((part) => {
      const rawName = part.split('=', 1)[0] as string;
      const name = parameterName(part);
      if (!isCredentialParameter(name)) return part;
      redacted = true;
      return `${rawName}=${headerPlaceholder(name)}`;
    });
  return redacted ? `${url.slice(0, start)}?${query.join('&')}` : url;
}

/** An object or array. */
function isWalkable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Every value under a `lm_providers_keys` member (in any case), at any depth, becomes `<PROVIDER_KEY>`, in place;
 * walked without recursion. It runs on the parsed value, so the member is found however its name was written
 * (`"lm_providers\u005fkeys"`), and of duplicate members only the one JSON.parse kept is left to redact. The one
 * redaction of a kept request body: the mock's journal and the proxy's requests file.
 */
export function redactProviderKeys(root: unknown): void {
  eachCredentialMember(root, (holder, key) => {
    const child = holder[key];
    if (!isWalkable(child) || Array.isArray(child)) holder[key] = secretPlaceholder;
    else for (const name of Object.keys(child)) child[name] = secretPlaceholder;
  });
}

/**
 * Calls `found` with each object that holds a `lm_providers_keys` member (its name in any case) and that member's
 * name, at any depth, in document order, without recursion (http/json-walk.ts); the member's own value is not walked.
 * `found` may return `stop`. The one reading of where provider keys are, for redacting them and for watching for their
 * echo alike.
 */
function eachCredentialMember(
  root: unknown,
  found: (holder: Record<string, unknown>, key: string) => 'stop' | undefined | void,
): void {
  walkJson(root, (_value, key, holder) => {
    if (typeof key !== 'string' || key.toLowerCase() !== credentialField) return undefined;
    return found(holder?.value as Record<string, unknown>, key) ?? 'skip';
  });
}

/**
 * Every string under a `lm_providers_keys` member (in any case), at any depth, in document order: each is a provider
 * key, a credential a proxy or a run must never let through (at most `limit`, so a hostile body costs a bounded list).
 */
export function providerKeyValues(root: unknown, limit = 1_000): string[] {
  const keys: string[] = [];
  eachCredentialMember(root, (holder, key) => {
    walkJson(holder[key], (value) => {
      if (keys.length >= limit) return 'stop';
      if (typeof value === 'string') keys.push(value);
      return undefined;
    });
    return keys.length >= limit ? 'stop' : undefined;
  });
  return keys;
}
