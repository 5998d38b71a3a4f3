import { Duplex } from 'node:stream';
import { createBrotliDecompress } from 'node:zlib';
import { webDecoders, type DecoderStream, type Decoders } from './content-coding.js';

/**
 * The decoders of content-coding.ts on Node: its Compression Streams, and node:zlib's brotli as a stream pair where
 * they have none (Node 20). The mock's node:http server and the proxy decode with these.
 */
export const nodeDecoders: Decoders = {
  br: () => Duplex.toWeb(createBrotliDecompress()) as DecoderStream,
  ...webDecoders,
};
