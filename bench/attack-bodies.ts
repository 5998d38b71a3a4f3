import { brotliCompressSync, constants, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';

/**
 * The amplification attack of issue 10: a create request of `bytes` bytes whose variant_ids holds as many numbers as
 * fit (about 500k in 1 MiB), each one a schema problem to a validator that reports every error.
 */
export function amplificationBody(request: Record<string, unknown>, bytes: number): string {
  const shell = JSON.stringify({ ...request, variant_ids: ['@'] });
  const items = Math.floor((bytes - shell.length) / 2);
  return shell.replace('"@"', `0${',0'.repeat(items - 1)}`);
}

/** A layer of a compression bomb: the HTTP codings, and raw deflate, which clients send as `deflate`. */
export type BombLayer = 'gzip' | 'deflate' | 'deflate-raw' | 'br';

/** Run-length matching only: for a run of one byte, the bytes of level 9's full search in a quarter of the time. */
const runLengths = { level: 9, strategy: constants.Z_RLE };

const compressors: Record<BombLayer, (bytes: Buffer) => Buffer> = {
  gzip: (bytes) => gzipSync(bytes, runLengths),
  deflate: (bytes) => deflateSync(bytes, runLengths),
  'deflate-raw': (bytes) => deflateRawSync(bytes, runLengths),
  // Quality 9, not the default 11: the same few hundred bytes for a bomb of repeated spaces, in a 15th of the time.
  br: (bytes) => brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
};

/** Each bomb made once per process: the first layer reads all its inflated bytes, and the bombs are a few KiB. */
const made = new Map<string, { body: Buffer; encoding: string }>();

/** The inflated bytes of the last size asked for: every bomb of a suite inflates to the same size. */
let spaces = Buffer.alloc(0);

/**
 * A body of `inflated` bytes (JSON whitespace) compressed by each layer in turn, and the Content-Encoding that says
 * so: a few KiB on the wire that a server inflating without a bound holds as `inflated` bytes.
 */
export function compressionBomb(layers: readonly BombLayer[], inflated: number): { body: Buffer; encoding: string } {
  const key = `${inflated} ${layers.join(',')}`;
  const known = made.get(key);
  if (known) return known;
  if (spaces.length !== inflated) spaces = Buffer.alloc(inflated, ' ');
  let body: Buffer = spaces;
  for (const layer of layers) body = compressors[layer](body);
  const bomb = { body, encoding: layers.map((layer) => (layer === 'deflate-raw' ? 'deflate' : layer)).join(', ') };
  made.set(key, bomb);
  return bomb;
}
