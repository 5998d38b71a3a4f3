import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startMockServer } from '../../mock/index.js';
import { expectValid } from './helpers.js';

/** A GET with a raw path, for what fetch would refuse or normalize. */
function rawGet(url: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('startMockServer', () => {
  it('listens, reports its URL with the base path, answers, and closes', async () => {
    const server = await startMockServer({ port: 0, basePath: '/api' });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
      const res = await fetch(`${server.url}/human-evaluations/abc`);
      expect(res.status).toBe(200);
      expectValid('HumanEvaluation', await res.json());
    } finally {
      await server.close();
    }
    await expect(fetch(`${server.url}/human-evaluations/abc`)).rejects.toThrow();
  });

  it('closes with keep-alive connections open', async () => {
    const server = await startMockServer({ port: 0 });
    await fetch(`${server.url}/human-evaluations/abc`, { headers: { Connection: 'keep-alive' } });
    await server.close();
  });

  it('answers ids too long for the HTTP parser with a JSON 431', async () => {
    const server = await startMockServer({ port: 0 });
    try {
      const res = await rawGet(server.url, `/human-evaluations/${'a'.repeat(20_000)}`);
      expect(res.status).toBe(431);
      expect(JSON.parse(res.body).detail).toMatch(/exceed 16 KiB/);
    } finally {
      await server.close();
    }
  });
});
