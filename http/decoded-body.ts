import { decodeBody } from './body-decoding.js';
import { ContentCodingError, contentCodings, decodeContent } from './content-coding.js';
import { describeSize } from './excerpt.js';
import type { BodyEncoding, Failure } from './exchange.js';
import { nodeDecoders } from './node-decoders.js';

/**
 * A body as a browser reads it: its Content-Encoding undone within the cap, then its bytes as text. The one reading
 * of an answer for the contract client and the proxy, so a deployment behind a compressing gateway is judged the same
 * by both, and a body whose Content-Encoding lies is a finding in both.
 */

/** A body with its Content-Encoding undone within the cap (contentOf), or the failure that stopped the decoding. */
export type Content = { bytes: Buffer } | { problem: Failure };

/** A decoding stopped, as a finding tells it: a bomb is too large, an unknown coding or broken bytes undecodable. */
function codingFailure(error: ContentCodingError, maxBytes: number): Failure {
  if (error.kind === 'too-large')
    return {
      kind: 'too-large',
      message: `the body exceeds the ${describeSize(maxBytes)} cap once decoded (Content-Encoding: ${error.coding})`,
    };
  if (error.kind === 'undecodable')
    return { kind: 'undecodable', message: `the body does not decode as its Content-Encoding says (${error.coding})` };
  if (error.coding !== undefined)
    return {
      kind: 'undecodable',
      message: `the body is in a Content-Encoding evalkit neither asks for nor reads (${JSON.stringify(error.coding)})`,
    };
  return { kind: 'undecodable', message: `the body's Content-Encoding cannot be decoded: ${error.message}` };
}

/**
 * A body's bytes with its Content-Encoding undone, last coding first, as a browser decodes them. Every layer stops at
 * the cap (http/content-coding.ts, the mock's decoder too), so a bomb costs at most that much memory and is reported,
 * never inflated. An empty body is empty whatever its header says (a 204 or a HEAD answer sent with one).
 */
export async function contentOf(
  bytes: Buffer,
  contentEncoding: string | undefined,
  maxBytes: number,
): Promise<Content> {
  if (bytes.length === 0) return { bytes };
  try {
    const decoded = await decodeContent(bytes, contentCodings(contentEncoding), maxBytes, nodeDecoders);
    return { bytes: Buffer.from(decoded.buffer, decoded.byteOffset, decoded.byteLength) };
  } catch (error) {
    if (!(error instanceof ContentCodingError)) throw error;
    return { problem: codingFailure(error, maxBytes) };
  }
}

/**
 * An answer's body as the client sees it: its Content-Encoding undone within the cap, so a bomb is a failure and
 * never inflated, then decoded as text. A body that cannot be decoded is judged empty, with the failure saying why;
 * so is a compressed one that was cut, while a cut plain one is kept, to be searched for echoes.
 */
export async function answerBody(
  bytes: Buffer,
  contentEncoding: string | undefined,
  maxBytes: number,
  cut: Failure | undefined,
): Promise<{ body: string; bodyBytes: number; encoding?: BodyEncoding; failure?: Failure }> {
  const content: Content =
    cut && contentEncoding !== undefined
      ? { bytes: Buffer.alloc(0) }
      : await contentOf(bytes, contentEncoding, maxBytes);
  if ('problem' in content) return { body: '', bodyBytes: 0, failure: content.problem };
  return { ...decodeBody(content.bytes), bodyBytes: content.bytes.length, ...(cut ? { failure: cut } : {}) };
}

/** What the contract client asks for: the codings contentOf undoes, as browsers list them. */
export const acceptedCodings = 'gzip, deflate, br';

/** The codings contentOf undoes, and identity, as Accept-Encoding names them. */
const decodable = new Set(['gzip', 'x-gzip', 'deflate', 'br', 'identity']);

/**
 * An Accept-Encoding narrowed to the codings contentOf undoes, their weights kept: a browser also lists codings such
 * as zstd, which a deployment behind a CDN then picks, and an answer evalkit cannot read cannot be judged. `*` goes
 * too, as it lets the server pick any; `identity` when nothing is left.
 */
export function decodableAcceptEncoding(header: string): string {
  const kept = header
    .split(',')
    .map((element) => element.trim())
    .filter((element) => decodable.has((element.split(';')[0] ?? '').trim().toLowerCase()));
  return kept.length > 0 ? kept.join(', ') : 'identity';
}
