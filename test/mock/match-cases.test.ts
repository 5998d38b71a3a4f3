import { describe, expect, it } from 'vitest';
import { operationTable } from '../../api/operations.js';
import { createMockCore, type MockAnswer } from '../../mock/index.js';
import { matchCases } from '../api/match-cases.js';
import { createRequest } from './helpers.js';

const body = new TextEncoder().encode(JSON.stringify(createRequest()));
const decoder = new TextDecoder();

/** The operation's own method, with a valid body where it takes one. */
async function send(basePath: string, path: string, method: string): Promise<{ status: number; json: unknown }> {
  const headers =
    method === 'POST' ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {};
  const answer: MockAnswer = await createMockCore({ basePath }).handle({
    method,
    url: `${basePath}${path}`,
    headers,
    ...(method === 'POST' && { body }),
  });
  return { status: answer.status, json: answer.body && JSON.parse(decoder.decode(answer.body)) };
}

describe('the mock core reads every path of test/api/match-cases.ts as api/match.ts does', () => {
  for (const basePath of ['', '/api']) {
    for (const { path, expected } of matchCases) {
      it(`${basePath}${path}`, async () => {
        if (expected === 'unknown') {
          for (const method of ['GET', 'POST']) {
            const { status, json } = await send(basePath, path, method);
            expect(status).toBe(404);
            expect((json as { detail: string }).detail).toMatch(/^Not Found: this mock serves/);
          }
        } else if ('undecodable' in expected) {
          const { status, json } = await send(basePath, path, operationTable[expected.undecodable].method);
          expect(status).toBe(400);
          expect(json).toEqual({ detail: 'The request path is not valid percent-encoded UTF-8' });
        } else if (expected.operation === 'fetchHumanEvaluation') {
          const { status, json } = await send(basePath, path, 'GET');
          expect(status).toBe(200);
          expect((json as { id: string }).id).toBe(expected.params.evaluation_id);
        } else {
          const { status, json } = await send(basePath, path, 'POST');
          expect(status).toBe(200);
          expect(Array.isArray(json)).toBe(true);
        }
      });
    }
  }
});
