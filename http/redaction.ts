/**
 * Everything the user gave as a credential, kept out of every output. runContract passes the whole Report through
 * `redactReport` before returning it, so every report built from a Report (terminal, JSON, JUnit, HTML, curl
 * reproductions) is redacted whatever it prints; terminal text also goes through `escapeControlCharacters`.
 */
import { headerPlaceholder, isCredentialQueryName } from './placeholders.js';
import { secretPattern } from './secret-forms.js';

export interface Secret {
  value: string;
  placeholder: string;
}

/** Shorter values are left alone: replacing every "1" would garble findings and protect nothing. */
const minimumSecretLength = 4;

/**
 * The credential parts of a header value besides the value itself: the token after an auth scheme (`Bearer abc`
 * echoed as `abc`), and for Basic the decoded `user:password` and the password alone.
 */
function headerParts(value: string): string[] {
  const words = value.split(/[\s,;]+/).filter(Boolean);
  const parts = words.length > 1 ? words.slice(1) : [];
  if (/^basic$/i.test(words[0] ?? '') && words[1]) {
    const decoded = Buffer.from(words[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon >= 0) parts.push(decoded, decoded.slice(colon + 1));
  }
  return parts;
}

/** The credentials in a base URL (the userinfo password, credential query values) and in the user's headers. */
export function credentialsOf(baseUrl: URL, headers: Record<string, string>): Secret[] {
  const secrets: Secret[] = [];
  if (baseUrl.password) {
    const password = decodeURIComponent(baseUrl.password);
    // The userinfo travels as Basic credentials: a deployment may echo that header value.
    const basic = Buffer.from(`${decodeURIComponent(baseUrl.username)}:${password}`).toString('base64');
    secrets.push({ value: password, placeholder: '<PASSWORD>' }, { value: basic, placeholder: '<PASSWORD>' });
  }
  for (const [name, value] of baseUrl.searchParams) {
    if (isCredentialQueryName(name)) secrets.push({ value, placeholder: headerPlaceholder(name) });
  }
  for (const [name, value] of Object.entries(headers)) {
    for (const part of [value, ...headerParts(value)])
      secrets.push({ value: part, placeholder: headerPlaceholder(name) });
  }
  return secrets;
}

/** A URL as reports print it: the userinfo password and credential query values as placeholders. */
export function publicUrl(url: URL): string {
  const query = [...url.searchParams].map(([name, value]) => {
    const shown = isCredentialQueryName(name) ? headerPlaceholder(name) : encodeURIComponent(value);
    return `${encodeURIComponent(name)}=${shown}`;
  });
  const user = url.username ? `${url.username}${url.password ? ':<PASSWORD>' : ''}@` : '';
  return `${url.protocol}//${user}${url.host}${url.pathname}${query.length ? `?${query.join('&')}` : ''}`;
}

/**
 * Replaces every secret, in clear or in any encoding a server may echo it in (secretPattern), longest first so a
 * token inside a header value goes with it.
 */
export class Redactor {
  /** Patterns are costly to build and secrets repeat: kept per value, dropped when the secrets have mostly changed. */
  private readonly patterns = new Map<string, RegExp>();

  constructor(private readonly secrets: () => readonly Secret[]) {}

  private matchers(): Array<{ pattern: RegExp; secret: Secret }> {
    const secrets = this.secrets()
      .filter((secret) => secret.value.length >= minimumSecretLength)
      .sort((a, b) => b.value.length - a.value.length);
    if (this.patterns.size > 4 * secrets.length + 64) this.patterns.clear();
    return secrets.map((secret) => {
      let pattern = this.patterns.get(secret.value);
      if (!pattern) this.patterns.set(secret.value, (pattern = secretPattern(secret.value)));
      return { pattern, secret };
    });
  }

  text(text: string): string {
    return this.matchers().reduce((out, { pattern, secret }) => out.replace(pattern, secret.placeholder), text);
  }

  /** The first secret the text holds, in any form; undefined when it holds none. */
  find(text: string): Secret | undefined {
    return this.matchers().find(({ pattern }) => text.search(pattern) >= 0)?.secret;
  }
}

/** Every string anywhere in a report (messages, findings, curl commands, bodies, notes, target) redacted. */
export function redactReport<T>(value: T, redactor: Redactor): T {
  if (typeof value === 'string') return redactor.text(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactReport(item, redactor)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactReport(item, redactor)])) as T;
  }
  return value;
}

/**
 * Server text made safe for a terminal: C0 and C1 control characters (ESC, CR, newlines, backspace…) shown as
 * `\xNN`, so a deployment cannot move the cursor, recolour or forge a line of the report.
 */
export function escapeControlCharacters(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (char) => {
    const code = char.charCodeAt(0);
    return code > 0xff ? `\\u${code.toString(16)}` : `\\x${code.toString(16).padStart(2, '0')}`;
  });
}
