import type { BodyEncoding } from './exchange.js';

/**
 * The body's text, and whether its bytes were UTF-8 (RFC 8259 §8.1) with or without a byte order mark: the one rule
 * of the contract client and the proxy.
 */
export function decodeBody(bytes: Buffer): { body: string; encoding?: BodyEncoding } {
  try {
    const body = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    return body.startsWith('\uFEFF') ? { body, encoding: 'bom' } : { body };
  } catch {
    return { body: bytes.toString('utf8'), encoding: 'invalid-utf8' };
  }
}
