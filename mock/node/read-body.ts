import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeDecoders } from '../../http/node-decoders.js';
import { HttpProblem } from '../core/errors.js';
import { maxBodyBytes } from '../core/limits.js';
import { decodedBody, tooLarge } from '../core/request-body.js';

const cutShort = new HttpProblem(400, 'The request body was not received in full');

/**
 * The body's bytes as sent, at most maxBodyBytes. Past the limit the reading stops and the answer closes the
 * connection: the rest of the upload is never read, and what is left of it cannot be taken for the next request.
 */
function bytesSent(req: IncomingMessage, res: ServerResponse): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (problem?: HttpProblem) => {
      req.off('data', onData).off('end', onEnd).off('close', onClose);
      if (!problem) return resolve(Buffer.concat(chunks, size));
      req.pause();
      if (!res.headersSent) res.setHeader('Connection', 'close');
      reject(problem);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) settle(tooLarge);
      else chunks.push(chunk);
    };
    const onEnd = () => settle();
    // A client gone before the end of its body: 'close' comes without 'end'.
    const onClose = () => settle(cutShort);
    req.on('data', onData).once('end', onEnd).once('close', onClose);
  });
}

/**
 * A request's body bytes, decoded from its Content-Encoding within the limit (the core's decodedBody, the one bound
 * of both adapters); rejects with the HttpProblem of a body that cannot be read (413, 415, 400).
 */
export async function readBody(req: IncomingMessage, res: ServerResponse): Promise<Uint8Array> {
  return decodedBody(await bytesSent(req, res), req.headers, nodeDecoders);
}
