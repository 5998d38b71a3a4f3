/**
 * Content codings (RFC 9110 §8.4) decoded within a byte limit: the one inflating function of evalkit, run by the
 * mock's node:http server, by its Fetch path (evalkit/msw) and by the proxy alike, so a compression bomb costs the same
 * bounded memory wherever it lands. Node-free: it runs on the Compression Streams API, and a runtime adds what that
 * lacks (http/node-decoders.ts).
 */

/** The codings a body may list; `x-gzip` is read as `gzip` (RFC 9110 §8.4.1.3), `identity` as none. */
export type ContentCoding = 'gzip' | 'deflate' | 'br';

/** What decodes one coding: a stream pair, as `DecompressionStream` is. `deflate-raw` reads a deflate without zlib. */
type DecoderFormat = 'gzip' | 'deflate' | 'deflate-raw' | 'br';
export interface DecoderStream {
  readable: ReadableStream<Uint8Array>;
  writable: WritableStream<Uint8Array>;
}
export type Decoders = Partial<Record<DecoderFormat, () => DecoderStream>>;
type CompressionFormat = ConstructorParameters<typeof DecompressionStream>[0];

/** More layers than any client applies; each is decoded within the limit, so the cap bounds the work per request. */
const maxContentCodings = 3;

/**
 * Why a body could not be decoded: the caller answers each in its own terms (the mock a 413, 415 or 400, the proxy a
 * finding).
 */
export class ContentCodingError extends Error {
  constructor(
    readonly kind: 'too-large' | 'unsupported' | 'undecodable',
    /**
     * The coding at fault, at most 40 characters: the layer that grew past the limit or did not decode, or the unknown
     * one. Undefined for bytes read before any decoding, for too many codings, and for a name that is not a token
     * (which no message should echo).
     */
    readonly coding: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

const token = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/**
 * The codings of a Content-Encoding header in the order they were applied; empty for none. Throws an `unsupported`
 * ContentCodingError naming the coding for one it does not know, and for more than maxContentCodings.
 */
export function contentCodings(header: string | undefined): ContentCoding[] {
  const codings: ContentCoding[] = [];
  // Empty list elements are allowed and ignored (RFC 9110 §5.6.1), as is identity, which changes nothing.
  for (const element of (header ?? '').split(',')) {
    const name = element.trim().toLowerCase();
    if (name === '' || name === 'identity') continue;
    const coding = name === 'x-gzip' ? 'gzip' : name;
    if (coding !== 'gzip' && coding !== 'deflate' && coding !== 'br') {
      const named = token.test(name) ? name.slice(0, 40) : undefined;
      const shown = named === undefined ? 'that is not a token' : `'${named}'`;
      throw new ContentCodingError(
        'unsupported',
        named,
        `a coding ${shown} is not supported (use gzip, deflate or br)`,
      );
    }
    if (codings.length === maxContentCodings)
      throw new ContentCodingError(
        'unsupported',
        undefined,
        `more than ${maxContentCodings} codings are not supported`,
      );
    codings.push(coding);
  }
  return codings;
}

/**
 * A stream's bytes, or a `too-large` ContentCodingError as soon as they pass the limit: the stream is cancelled there,
 * so a decoder upstream stops inflating and nothing past the limit is kept.
 */
export async function readBounded(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      // Not awaited: the cancel of one branch of a tee'd stream (msw 2 hands handlers one) settles only when the other
      // branch is cancelled too, so awaiting it would hang the answer.
      reader.cancel().catch(() => undefined);
      throw new ContentCodingError('too-large', undefined, 'the body is larger than its limit');
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/** HTTP's `deflate` is zlib-wrapped, but clients have long sent raw deflate under that name; browsers read both. */
function deflateFormat(bytes: Uint8Array): DecoderFormat {
  const [cmf = 0, flags = 0] = bytes;
  return (cmf & 0x0f) === 8 && ((cmf << 8) | flags) % 31 === 0 ? 'deflate' : 'deflate-raw';
}

async function decodeLayer(bytes: Uint8Array, coding: ContentCoding, limit: number, decoders: Decoders) {
  const format = coding === 'deflate' ? deflateFormat(bytes) : coding;
  const decoder = decoders[format];
  if (!decoder) throw new ContentCodingError('unsupported', coding, `the coding '${coding}' is not supported here`);
  const input = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream();
  try {
    return await readBounded(input.pipeThrough(decoder()), limit);
  } catch (error) {
    if (error instanceof ContentCodingError)
      throw new ContentCodingError('too-large', coding, `the body is larger than its limit once ${coding} is undone`);
    throw new ContentCodingError('undecodable', coding, `the body does not decode as ${coding}`);
  }
}

/**
 * The body under its codings (as contentCodings gives them), decoded last applied first. Every layer's output is held
 * to the limit, not only the last one's: an inner layer of empty gzip members would otherwise expand unseen.
 */
export async function decodeContent(
  bytes: Uint8Array,
  codings: readonly ContentCoding[],
  limit: number,
  decoders: Decoders = webDecoders,
): Promise<Uint8Array> {
  let decoded = bytes;
  for (let layer = codings.length - 1; layer >= 0; layer--)
    decoded = await decodeLayer(decoded, codings[layer] as ContentCoding, limit, decoders);
  return decoded;
}

function supports(format: string): boolean {
  try {
    new DecompressionStream(format as CompressionFormat);
    return true;
  } catch {
    return false;
  }
}

/** The runtime's Compression Streams: gzip and deflate everywhere, br where the runtime has it (`brotli`). */
export const webDecoders: Decoders = {
  gzip: () => webDecoder('gzip'),
  deflate: () => webDecoder('deflate'),
  'deflate-raw': () => webDecoder('deflate-raw'),
  ...(supports('brotli') && { br: () => webDecoder('brotli' as CompressionFormat) }),
};

/**
 * A Compression Streams decoder as the bounded reader drives it (bytes in, bytes out). Node's typings and the DOM's
 * differ on what its writable side takes (Uint8Array, or any BufferSource): this reader writes Uint8Arrays alone.
 */
function webDecoder(format: CompressionFormat): DecoderStream {
  return new DecompressionStream(format) as unknown as DecoderStream;
}
