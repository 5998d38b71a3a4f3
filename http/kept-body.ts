import { redactProviderKeys } from './placeholders.js';

/**
 * A request body as a record keeps it (the proxy's requests.jsonl) and as a replay sends it again: JSON with every
 * provider key redacted by the one walk (http/placeholders.ts), or withheld saying why. A body that cannot be read as
 * JSON cannot be searched for keys by structure, and no search of its bytes finds every way of writing one, so it is
 * never kept or sent as it came.
 */
export type KeptBody = { body: unknown } | { withheld: string };

/** What a withheld body is kept as, in the mock's journal and in requests.jsonl alike (with `body_truncated`). */
export function withheldBodyText(bytes: number, reason: string): string {
  return `<body withheld: ${bytes} bytes, ${reason}>`;
}

/** The byte order marks a JSON text may start with (RFC 8259 §8.1 lets a reader ignore UTF-8's), longest first. */
const byteOrderMarks: ReadonlyArray<{ bytes: readonly number[]; charset: string }> = [
  { bytes: [0xef, 0xbb, 0xbf], charset: 'utf-8' },
  { bytes: [0xff, 0xfe], charset: 'utf-16le' },
  { bytes: [0xfe, 0xff], charset: 'utf-16be' },
];

/** The `charset` parameter of a Content-Type value, lower-cased and unquoted, or undefined. */
function charsetParameter(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  const value = match?.[1] ?? match?.[2];
  return value ? value.toLowerCase() : undefined;
}

/**
 * The charset of a request body: its byte order mark, else its Content-Type's charset, else the NUL pattern of the
 * first two bytes (RFC 4627 §3: ASCII JSON in UTF-16 has a NUL beside each character, which UTF-8 JSON never starts
 * with), else UTF-8.
 */
function charsetOf(bytes: Uint8Array, contentType: string | undefined): string {
  for (const mark of byteOrderMarks) if (mark.bytes.every((byte, index) => bytes[index] === byte)) return mark.charset;
  const declared = charsetParameter(contentType);
  if (declared !== undefined) return declared;
  if (bytes.length >= 2 && bytes[0] === 0 && bytes[1] !== 0) return 'utf-16be';
  if (bytes.length >= 2 && bytes[0] !== 0 && bytes[1] === 0) return 'utf-16le';
  return 'utf-8';
}

/** A JSON text as a record keeps it: parsed (a leading byte order mark ignored), every provider key redacted. */
export function keptJsonText(text: string): KeptBody {
  let body: unknown;
  try {
    body = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { withheld: 'not JSON' };
  }
  redactProviderKeys(body);
  return { body };
}

/** A request body's bytes as a record keeps them: decoded in the charset its mark or Content-Type names, then JSON. */
export function keptRequestBody(bytes: Uint8Array, contentType: string | undefined): KeptBody {
  const charset = charsetOf(bytes, contentType);
  let text: string;
  try {
    // The decoder removes the byte order mark of its own charset (ignoreBOM false); RangeError: no such charset.
    const decoder = new TextDecoder(charset, { fatal: true });
    try {
      text = decoder.decode(bytes);
    } catch {
      return { withheld: `not valid ${decoder.encoding}` };
    }
  } catch {
    return { withheld: `in a charset evalkit cannot read (${charset.slice(0, 40)})` };
  }
  return keptJsonText(text);
}
