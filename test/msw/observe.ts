import type { Express } from 'express';
import request from 'supertest';
import type { CorpusRequest } from './corpus.js';

/** What must be equal through every adapter: the status, the headers a client reads, and the body's bytes. */
export interface Observed {
  status: number;
  contentType: string | undefined;
  allow: string | undefined;
  preferenceApplied: string | undefined;
  body: string;
}

/** A request through the Express adapter (supertest), the bytes sent and received as they are. */
export async function observeExpress(app: Express, basePath: string, entry: CorpusRequest): Promise<Observed> {
  let req = request(app)[entry.method.toLowerCase() as 'get'](`${basePath}${entry.path}`);
  for (const [name, value] of Object.entries(entry.headers ?? {})) req = req.set(name, value);
  // No serializer or parser of supertest's in between.
  req = req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
  const res =
    entry.body === undefined
      ? await req
      : await req.serialize((data: unknown) => data as string).send(entry.body as string);
  return {
    status: res.status,
    contentType: res.headers['content-type'],
    allow: res.headers.allow,
    preferenceApplied: res.headers['preference-applied'],
    // supertest runs no parser for a HEAD answer, which has no body.
    body: Buffer.isBuffer(res.body) ? res.body.toString('utf8') : '',
  };
}

/** A Fetch answer (MSW's, a server's over HTTP, a page's) as the parity tests compare it. */
export async function observeResponse(res: Response): Promise<Observed> {
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? undefined,
    allow: res.headers.get('allow') ?? undefined,
    preferenceApplied: res.headers.get('preference-applied') ?? undefined,
    body: await res.text(),
  };
}
