import { keptRequestBody, withheldBodyText } from '../../http/kept-body.js';
import { headerPlaceholder, isCredentialHeaderName } from '../../http/placeholders.js';
import type { RequestHeaders } from '../core/request-answer.js';

/** How much of a body the journal keeps, 8 KiB: 500 entries stay under about 8 MB of bodies whatever clients send. */
export const journalBodyCap = 8 * 1024;

/**
 * The headers with each credential replaced by its placeholder (`Authorization` → `<AUTHORIZATION>`): a copy when
 * there is one, the object itself otherwise, so the common request costs no copy.
 */
export function redactHeaders(headers: RequestHeaders): RequestHeaders {
  let redacted: Record<string, string | string[] | undefined> | undefined;
  for (const name in headers) {
    if (!isCredentialHeaderName(name)) continue;
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

/** A body as the journal keeps it: a JSON value when it is whole JSON within the cap, else text (cut, or withheld). */
export interface JournalBody {
  body: unknown;
  /** Bytes received, before any cut. */
  bytes: number;
  /** The body kept is not the whole body: cut at the cap, or withheld (a copy-as-curl then reads a file instead). */
  truncated: boolean;
}

/**
 * The largest body the journal reads, 64 KiB: any real create request fits, and a flood of 1 MiB bodies costs no
 * parse (16 at once would otherwise hold over 100 MB of parsed trees).
 */
const journalReadCap = 64 * 1024;

/** A body the journal does not keep, by its size and why. */
export function notKept(bytes: number, reason: string): JournalBody {
  return { body: withheldBodyText(bytes, reason), bytes, truncated: true };
}

/**
 * A request body made safe to keep, read by the one reader records use (http/kept-body.ts: the charset its byte order
 * mark or Content-Type names, then JSON, every provider key redacted on the parsed value), so the journal, the
 * proxy's requests.jsonl and a replay keep the same body alike. The adapter has already inflated its
 * Content-Encoding. Kept as the value, or as its JSON text cut at the cap; a body that cannot be read so (over 64 KiB,
 * in no charset it names, not JSON, nested too deep to write back) is withheld whole: its credentials could not be
 * found by structure, and no search of its bytes finds every way of writing one.
 */
export function redactBody(raw: Uint8Array | undefined, contentType: string | undefined): JournalBody | undefined {
  if (raw === undefined || raw.length === 0) return undefined;
  const bytes = raw.length;
  if (bytes > journalReadCap) return notKept(bytes, `over the ${journalReadCap / 1024} KiB the journal reads`);
  const kept = keptRequestBody(raw, contentType);
  if ('withheld' in kept) return notKept(bytes, kept.withheld);
  let json: string;
  try {
    json = JSON.stringify(kept.body);
  } catch {
    return notKept(bytes, 'nested too deep');
  }
  if (json.length <= journalBodyCap) return { body: kept.body, bytes, truncated: false };
  return { body: json.slice(0, journalBodyCap), bytes, truncated: true };
}

/**
 * An answer body as the journal keeps it: the mock's own bytes, which hold no credential (it never echoes one). A body
 * within the cap is kept by reference (cached bodies are shared, so it costs nothing); a larger one is copied cut.
 */
export function keptAnswerBody(body: Uint8Array | undefined): Uint8Array | undefined {
  if (body === undefined || body.length <= journalBodyCap) return body;
  return body.slice(0, journalBodyCap);
}

const decoder = new TextDecoder();

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
