import { credentialField } from '../../api/credentials.js';
import { headerPlaceholder, secretPlaceholder } from '../../http/placeholders.js';
import type { RequestHeaders } from '../core/request-answer.js';

/** Headers that carry credentials by name; any header naming a key, token or secret is treated the same. */
const credentialHeaders = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
const credentialWords = /key|token|secret/i;

/** How much of a body the journal keeps, 8 KiB: 500 entries stay under about 8 MB of bodies whatever clients send. */
export const journalBodyCap = 8 * 1024;

function isCredentialHeader(name: string): boolean {
  return credentialHeaders.has(name.toLowerCase()) || credentialWords.test(name);
}

/**
 * The headers with each credential replaced by its placeholder (`Authorization` → `<AUTHORIZATION>`): a copy when
 * there is one, the object itself otherwise, so the common request costs no copy.
 */
export function redactHeaders(headers: RequestHeaders): RequestHeaders {
  let redacted: Record<string, string | string[] | undefined> | undefined;
  for (const name in headers) {
    if (!isCredentialHeader(name)) continue;
    redacted ??= { ...headers };
    redacted[name] = headerPlaceholder(name);
  }
  return redacted ?? headers;
}

/** Header values as text, as the journal shows them (node:http gives a few repeated ones as arrays). */
export function headerTexts(headers: RequestHeaders): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined) texts[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return texts;
}

/** A body as the journal keeps it: a JSON value when it is whole JSON within the cap, else text cut at the cap. */
export interface JournalBody {
  body: unknown;
  /** Bytes received, before any cut. */
  bytes: number;
  /** The body kept is not the whole body: cut at the cap, or withheld (a copy-as-curl then reads a file instead). */
  truncated: boolean;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Every value under a `lm_providers_keys` key, at any depth, becomes `<PROVIDER_KEY>`; walked without recursion. */
function redactCredentials(root: unknown): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (!isObject(value)) continue;
    for (const key of Object.keys(value)) {
      const child = value[key];
      if (key !== credentialField) stack.push(child);
      else if (isObject(child) && !Array.isArray(child))
        for (const name of Object.keys(child)) child[name] = secretPlaceholder;
      else value[key] = secretPlaceholder;
    }
  }
}

/**
 * The largest body the journal parses to redact, 64 KiB: any real create request fits, and a flood of 1 MiB bodies
 * naming the credential field costs no parse (16 at once would otherwise hold over 100 MB of parsed trees).
 */
const redactionParseCap = 64 * 1024;

const decoder = new TextDecoder();
const credentialBytes = new TextEncoder().encode(credentialField);
/** Horspool's shift for each byte at the end of a window: how far the name can move before that byte could fit. */
const credentialShift = new Uint8Array(256).fill(credentialBytes.length);
credentialBytes.forEach((byte, index) => {
  if (index < credentialBytes.length - 1) credentialShift[byte] = credentialBytes.length - 1 - index;
});

/**
 * Whether the bytes hold the credential field's name: a Horspool search, plain code so the journal runs in a browser
 * too (no Buffer). It skips up to the name's length per step; about 0.2 ms for 1 MiB, 4 ms at worst.
 */
function namesCredentialField(raw: Uint8Array): boolean {
  const length = credentialBytes.length;
  for (let end = length - 1; end < raw.length; end += credentialShift[raw[end] as number] as number) {
    let matched = 0;
    while (matched < length && raw[end - matched] === credentialBytes[length - 1 - matched]) matched++;
    if (matched === length) return true;
  }
  return false;
}

const parseCapKiB = redactionParseCap / 1024;
const withheld = `[withheld: it names ${credentialField}, and it is not valid JSON or is over ${parseCapKiB} KiB]`;

/** The body with every credential replaced, as JSON text; undefined when it is not JSON (or nests too deep for V8). */
function redactedJson(text: string): { value: unknown; json: string } | undefined {
  try {
    const value: unknown = JSON.parse(text);
    redactCredentials(value);
    return { value, json: JSON.stringify(value) };
  } catch {
    return undefined;
  }
}

/**
 * A request body made safe to keep: credentials replaced, then cut at the cap. Redaction comes before the cut, so a
 * credential can never survive in a truncated prefix; a body that names the credential field but does not parse, or is
 * too large to parse cheaply, is not kept at all, since its values cannot be found reliably. A large body that does not
 * name the field is cut without being parsed: a 1 MiB attack costs the journal a byte search and an 8 KiB decode.
 */
export function redactBody(raw: Uint8Array | undefined): JournalBody | undefined {
  if (raw === undefined || raw.length === 0) return undefined;
  const bytes = raw.length;
  const namesCredential = namesCredentialField(raw);
  if (!namesCredential && bytes > journalBodyCap)
    return { body: decoder.decode(raw.subarray(0, journalBodyCap)), bytes, truncated: true };
  if (bytes > redactionParseCap) return { body: withheld, bytes, truncated: true };
  const text = decoder.decode(raw);
  const parsed = redactedJson(text);
  if (!parsed)
    return namesCredential ? { body: withheld, bytes, truncated: true } : { body: text, bytes, truncated: false };
  if (parsed.json.length <= journalBodyCap) return { body: parsed.value, bytes, truncated: false };
  return { body: parsed.json.slice(0, journalBodyCap), bytes, truncated: true };
}

/**
 * An answer body as the journal keeps it: the mock's own bytes, which hold no credential (it never echoes one). A body
 * within the cap is kept by reference (cached bodies are shared, so it costs nothing); a larger one is copied cut.
 */
export function keptAnswerBody(body: Uint8Array | undefined): Uint8Array | undefined {
  if (body === undefined || body.length <= journalBodyCap) return body;
  return body.slice(0, journalBodyCap);
}

/** A kept answer body for display: JSON when whole, text otherwise. */
export function answerBodyView(kept: Uint8Array | undefined, bytes: number): JournalBody | undefined {
  if (kept === undefined) return undefined;
  const text = decoder.decode(kept);
  if (kept.length < bytes) return { body: text, bytes, truncated: true };
  try {
    return { body: JSON.parse(text), bytes, truncated: false };
  } catch {
    return { body: text, bytes, truncated: false };
  }
}
