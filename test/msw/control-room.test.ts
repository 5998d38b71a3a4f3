import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pathFor } from '../../api/match.js';
import { createHandlers } from '../../mock/msw/index.js';
import { createRequest, secret } from '../mock/helpers.js';
import { answeredBy, appsOwnHandler } from './app-handler.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const app = 'http://app.test';
const fetchPath = (id: string) => pathFor('fetchHumanEvaluation', { evaluation_id: id });
const createPath = pathFor('createEvaluations');

interface Entry {
  method: string;
  path: string;
  status: number;
  request: { headers: Record<string, string>; body: unknown };
  problems: unknown[];
}

async function journal(origin = app): Promise<Entry[]> {
  const res = await fetch(`${origin}/__evalkit/requests`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { requests: Entry[] }).requests;
}

describe('evalkit/msw with its control room (createHandlers({ controlRoom: true }))', () => {
  it('keeps what the app sent, newest first, its credentials redacted before storing', async () => {
    server.use(...createHandlers({ controlRoom: true }));
    await fetch(`${app}${fetchPath('seen-1')}`, { headers: { Authorization: `Bearer ${secret}` } });
    await fetch(`${app}${createPath}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(createRequest()),
    });
    await fetch(`${app}${createPath}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(createRequest({ app_id: 7 })),
    });
    const entries = await journal();
    expect(entries.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual([
      `POST ${createPath} 422`,
      `POST ${createPath} 200`,
      `GET ${fetchPath('seen-1')} 200`,
    ]);
    expect(entries[0]?.problems).not.toEqual([]);
    expect(entries[1]?.request.body).toEqual(
      createRequest({ lm_providers_keys: { OPENAI_API_KEY: '<PROVIDER_KEY>' } }),
    );
    expect(entries[2]?.request.headers.authorization).toBe('<AUTHORIZATION>');
    expect(JSON.stringify(entries)).not.toContain(secret);
  });

  it('changes the server scenario at run time and clears the journal, as evalkit mock does', async () => {
    server.use(...createHandlers({ controlRoom: true, baseUrl: 'http://api.test/api' }), appsOwnHandler);
    const put = await fetch('http://api.test/__evalkit/scenario', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ operations: { fetchHumanEvaluation: { code: 500 } } }),
    });
    expect(put.status).toBe(200);
    expect((await fetch(`http://api.test/api${fetchPath('x')}`)).status).toBe(500);
    expect((await journal('http://api.test')).map((entry) => entry.status)).toEqual([500]);
    expect((await fetch('http://api.test/__evalkit/requests', { method: 'DELETE' })).status).toBe(204);
    expect(await journal('http://api.test')).toEqual([]);
    // The control room answers on the baseUrl's origin only, like the API.
    expect(answeredBy(await fetch('http://other.test/__evalkit/requests'))).toBe('app');
  });

  it("says the event stream is the server's, and keeps nothing with a journal size of 0", async () => {
    server.use(...createHandlers({ controlRoom: true, journalSize: 0 }));
    expect((await fetch(`${app}/__evalkit/events`)).status).toBe(404);
    await fetch(`${app}${fetchPath('a')}`);
    const res = await fetch(`${app}/__evalkit/requests`);
    expect(res.status).toBe(404);
  });

  it('is off by default: /__evalkit passes by like any other request of the app', async () => {
    server.use(...createHandlers(), appsOwnHandler);
    expect(answeredBy(await fetch(`${app}/__evalkit/requests`))).toBe('app');
  });
});
