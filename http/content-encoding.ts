import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync, type ZlibOptions } from 'node:zlib';
import { describeSize } from './excerpt.js';
import type { Failure } from './exchange.js';

/** Why a body's bytes could not be decoded as its Content-Encoding says. */
interface EncodingProblem extends Failure {
  kind: 'too-large' | 'undecodable';
}

type Decoder = (bytes: Buffer, options: ZlibOptions) => Buffer;

/** Deflate as browsers read it: the zlib wrapper RFC 9110 names, or the raw stream some servers send instead. */
function inflateEither(bytes: Buffer, options: ZlibOptions): Buffer {
  try {
    return inflateSync(bytes, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'Z_DATA_ERROR') throw error;
    return inflateRawSync(bytes, options);
  }
}

/** The codings browsers decode (RFC 9110 §8.4.1), by their registered names and aliases. */
const decoders: Record<string, Decoder> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateEither,
  br: (bytes, options) => brotliDecompressSync(bytes, options),
};

function quote(coding: string): string {
  return JSON.stringify(coding);
}

/** The codings of a Content-Encoding header in the order they were applied, `identity` left out. */
function codingsOf(header: string | string[] | undefined): string[] {
  return ([] as string[])
    .concat(header ?? [])
    .join(',')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

/**
 * A body's bytes with its Content-Encoding undone, last coding first, as a browser decodes them. No step may grow past
 * `maxBytes`: zlib stops there, so a bomb costs at most that much memory and is reported, never inflated.
 */
export function decodeContent(
  bytes: Buffer,
  header: string | string[] | undefined,
  maxBytes: number,
): { bytes: Buffer } | { problem: EncodingProblem } {
  const codings = codingsOf(header);
  const unknown = codings.filter((coding) => !decoders[coding]);
  if (unknown.length > 0)
    return {
      problem: {
        kind: 'undecodable',
        message: `the body is in a Content-Encoding no browser decodes (${unknown.map(quote).join(', ')})`,
      },
    };
  let decoded = bytes;
  for (const coding of codings.reverse()) {
    try {
      decoded = (decoders[coding] as Decoder)(decoded, { maxOutputLength: maxBytes });
    } catch (error) {
      const tooLarge = (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
      return {
        problem: tooLarge
          ? {
              kind: 'too-large',
              message: `the body exceeds the ${describeSize(maxBytes)} cap once decoded (Content-Encoding: ${coding})`,
            }
          : { kind: 'undecodable', message: `the body does not decode as its Content-Encoding says (${coding})` },
      };
    }
  }
  return { bytes: decoded };
}
