import type { IncomingHttpHeaders } from 'node:http';
import { headerPlaceholder } from './placeholders.js';
import { credentialsOf, type Secret } from './redaction.js';

/** Header names that say their value is a credential: Authorization, X-Api-Key, X-Auth-Token, X-Session-Id, Cookie… */
const credentialHeaderName = /key|token|secret|auth|session|password|credential|cookie/i;

/** The values of a Cookie header's `name=value` pairs: each is a credential of its own. */
function cookieValues(header: string): string[] {
  return header
    .split(';')
    .map((pair) => pair.slice(pair.indexOf('=') + 1).trim())
    .filter(Boolean);
}

/**
 * The credentials a client sent with one request, as secrets exactly like `--header` values (credentialsOf): the
 * values of credential headers (with the token of `Bearer …` and the decoded password of `Basic …`), each cookie's
 * value, and the values of credential query parameters (isCredentialQueryName) in the request target.
 */
export function requestCredentials(requestTarget: string, headers: IncomingHttpHeaders): Secret[] {
  const named: Record<string, string> = {};
  const cookies: Secret[] = [];
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined || !credentialHeaderName.test(name)) continue;
    const value = ([] as string[]).concat(raw).join('; ');
    named[name] = value;
    if (name === 'cookie')
      cookies.push(...cookieValues(value).map((cookie) => ({ value: cookie, placeholder: headerPlaceholder(name) })));
  }
  let url: URL;
  try {
    url = new URL(requestTarget, 'http://client.invalid');
  } catch {
    url = new URL('http://client.invalid');
  }
  return [...credentialsOf(url, named), ...cookies];
}
