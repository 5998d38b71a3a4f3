import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { maxBodyBytes } from '../core/limits.js';
import { bodyReadProblem } from './errors.js';

/** body-parser reads and inflates (gzip, deflate, br) within the limit; the core has checked the media type first. */
const rawBody = express.raw({ type: () => true, limit: maxBodyBytes });

/** A request's body bytes, inflated; rejects with the HttpProblem of a body that cannot be read (413, 400, 415). */
export function readBody(req: IncomingMessage & { body?: unknown }, res: ServerResponse): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    rawBody(req as express.Request, res as express.Response, (error?: unknown) => {
      if (error) reject(bodyReadProblem(error));
      else resolve(Buffer.isBuffer(req.body) ? req.body : new Uint8Array(0));
    });
  });
}
