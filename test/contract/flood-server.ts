import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generators } from '../../generators/index.js';

/**
 * A deployment that answers everything with 2-4 MB: a HumanEvaluation whose arrays hold hundreds of thousands of
 * wrongly typed items and thousands of undocumented fields, a create answer of thousands of broken Evaluations, and
 * 3 MB error pages for everything else. Each byte of it turns into findings, notes or excerpts.
 */
export async function startFloodServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const record = generators.HumanEvaluation('flood', { id: '6637c0a25368ef07b03a64cd' }) as unknown as Record<
    string,
    unknown
  >;
  const extra = Object.fromEntries(
    Array.from({ length: 20_000 }, (_, index) => [`undocumented_field_${index}_${'x'.repeat(40)}`, index]),
  );
  const fetchBody = JSON.stringify({
    ...record,
    variant_ids: Array.from({ length: 300_000 }, (_, index) => index),
    ...extra,
  });
  const evaluation = generators.Evaluation('flood') as unknown as Record<string, unknown>;
  const createBody = JSON.stringify(
    Array.from({ length: 1_500 }, (_, index) => ({
      ...evaluation,
      id: index,
      created_at: 'yesterday',
      [`extra_${index}`]: 'y'.repeat(400),
    })),
  );
  const errorPage = `<html>${'<p>Internal Server Error</p>'.repeat(110_000)}</html>`;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/human-evaluations/6637c0a25368ef07b03a64cd')
        res.writeHead(200, { 'content-type': 'application/json' }).end(fetchBody);
      else if (
        req.method === 'POST' &&
        req.headers['content-type'] === 'application/json' &&
        !req.headers['content-length']?.startsWith('0')
      )
        res.writeHead(200, { 'content-type': 'application/json' }).end(createBody);
      else res.writeHead(500, { 'content-type': 'text/html' }).end(errorPage);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
