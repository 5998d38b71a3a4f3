import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockCore, startMockServer, type MockAnswer, type MockServer } from '../../mock/index.js';
import { sessionCookie, sessionHeader } from '../../mock/core/sessions.js';
import { evaluationStates } from '../../generators/vocabulary.js';
import { scaled } from '../properties/runs.js';

/**
 * Twenty clients at once, as Playwright workers share one `evalkit mock`, each in its own session with its own
 * scenario, over real sockets: no answer may follow another session's scenario or the server's.
 */
const clients = 20;
/** 1,000 in `npm test`; 10,000 in `npm run test:properties`. */
const requestsInAll = scaled(1_000);
const ids = ['6637c0a25368ef07b03a64cd', 'a', 'run-2', '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', 'x'];

/** The server's scenario: a code no session answers with, so any request that falls back to it shows. */
const server = { code: 503, now: '2025-06-01T12:00:00Z' };
const errorCodes = [401, 403, 404, 422, 429, 500];

/** Session i's scenario: six answer with an error code each, the rest with a state of their own seed, some slowed
 * down or followed as a polling UI sees a run move. */
function scenarioOf(index: number): Record<string, string | number> {
  const code = errorCodes[index];
  if (code !== undefined) return { code, ...(index % 2 === 0 && { latency: '0-2' }) };
  return {
    code: 200,
    seed: `session-${index}`,
    state: evaluationStates[index % evaluationStates.length] as string,
    ...(index % 3 === 0 && { latency: '0-2' }),
    ...(index % 4 === 0 && { progress: 86_400_000 }),
  };
}

let mock: MockServer;
const agent = new Agent({ keepAlive: true, maxSockets: clients });
/** What each session's scenario alone answers, by id: status and body. */
const expected = new Map<string, { status: number; body: string }>();

function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    sent.on('error', reject);
    sent.end();
  });
}

beforeAll(async () => {
  mock = await startMockServer({ port: 0, scenario: server });
  for (let index = 0; index < clients; index++) {
    const response = await fetch(`${mock.url}/__evalkit/sessions/w${index}/scenario`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ scenario: scenarioOf(index) }),
    });
    expect(response.status).toBe(200);
    const alone = createMockCore({ scenario: { ...server, ...scenarioOf(index) } });
    for (const id of ids) {
      const answer = (await alone.handle({
        method: 'GET',
        url: `/human-evaluations/${id}`,
        headers: {},
      })) as MockAnswer;
      expected.set(`w${index} ${id}`, { status: answer.status, body: Buffer.from(answer.body ?? []).toString() });
    }
  }
});

afterAll(async () => {
  agent.destroy();
  await mock.close();
});

/** Every client's requests, all clients at once; the answers that differ from their session's scenario alone. */
async function strayAnswers(
  address: (session: string, id: string) => { url: string; headers: Record<string, string> },
): Promise<string[]> {
  const stray: string[] = [];
  await Promise.all(
    Array.from({ length: clients }, async (_, index) => {
      const session = `w${index}`;
      for (let step = 0; step < requestsInAll / clients; step++) {
        const id = ids[(step + index) % ids.length] as string;
        const { url, headers } = address(session, id);
        const answer = await get(url, headers);
        const want = expected.get(`${session} ${id}`);
        if (answer.status !== want?.status || answer.body !== want.body)
          stray.push(`${session} ${id} ${answer.status}`);
      }
    }),
  );
  return stray;
}

describe(`${clients} clients at once, each in its own session, ${requestsInAll} requests`, () => {
  it('by header or cookie: no answer follows another session or the server', async () => {
    const stray = await strayAnswers((session, id) => {
      const byHeader = Number(session.slice(1)) % 2 === 0;
      const headers: Record<string, string> = byHeader
        ? { [sessionHeader]: session }
        : { cookie: `${sessionCookie}=${session}` };
      return { url: `${mock.url}/human-evaluations/${id}`, headers };
    });
    expect(stray).toEqual([]);
  }, 120_000);

  it('by the /__sessions/NAME prefix: no answer follows another session or the server', async () => {
    const stray = await strayAnswers((session, id) => ({
      url: `${mock.url}/__sessions/${session}/human-evaluations/${id}`,
      headers: {},
    }));
    expect(stray).toEqual([]);
  }, 120_000);
});
