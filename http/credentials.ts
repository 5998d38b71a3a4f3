import type { IncomingHttpHeaders } from 'node:http';
import { endToEnd } from './hop-by-hop.js';
import { headerPlaceholder, isCredentialHeaderName } from './placeholders.js';
import { credentialsOf, type Secret } from './redaction.js';

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
    if (raw === undefined || !isCredentialHeaderName(name)) continue;
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

/** Framing a replay sets itself: curl computes the length, and the Content-Type goes with the body. */
const framing = new Set(['content-length', 'content-type']);

/**
 * A client's end-to-end headers as a reproduction replays them: the scenario or negotiation headers that shaped the
 * answer (`Prefer: code=503`) kept, every credential header's value as its placeholder.
 */
export function replayHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const raw = Object.entries(headers).flatMap(([name, value]) =>
    value === undefined ? [] : [name, Array.isArray(value) ? value.join(', ') : value],
  );
  const kept = endToEnd(raw, 'request');
  const replayed: Record<string, string> = {};
  for (let index = 0; index + 1 < kept.length; index += 2) {
    const name = kept[index] as string;
    if (framing.has(name)) continue;
    replayed[name] = isCredentialHeaderName(name) ? headerPlaceholder(name) : (kept[index + 1] as string);
  }
  return replayed;
}
