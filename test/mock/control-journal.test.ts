import { describe, expect, it } from 'vitest';
import { journalProblemsCap } from '../../mock/control/journal.js';
import { journalBodyCap } from '../../mock/control/redaction.js';
import { journal, mockServers, openEvents, post } from './control-helpers.js';
import { createRequest, secret } from './helpers.js';

const start = mockServers();

describe('GET /__evalkit/requests', () => {
  it('lists each request newest first, with its status, scenario, headers, bodies and 422 problems', async () => {
    const { url, origin } = await start({ basePath: '/api' });
    expect((await fetch(`${url}/human-evaluations/first`, { headers: { Prefer: 'state=failed' } })).status).toBe(200);
    expect((await post(url, createRequest({ variant_ids: [1, 'ok'], testset_id: undefined }))).status).toBe(422);
    const [second, first, ...rest] = await journal(origin);
    expect(rest).toEqual([]);

    expect(first).toMatchObject({
      method: 'GET',
      path: '/api/human-evaluations/first',
      status: 200,
      fault: null,
      problems: [],
      served: 'mock',
    });
    expect(first?.scenario).toEqual({ state: 'EVALUATION_FAILED', profile: 'mixed', seed: '1' });
    expect(first?.response.body.id).toBe('first');
    expect(first?.response.body.status).toBe('EVALUATION_FAILED');
    expect(first?.response.headers['Preference-Applied']).toBe('state=EVALUATION_FAILED');
    expect(first?.request).toMatchObject({ body: null, body_bytes: 0 });
    expect(new Date(first?.time).toISOString()).toBe(first?.time);
    expect(first?.duration_ms).toBeGreaterThanOrEqual(0);

    expect(second).toMatchObject({ method: 'POST', path: '/api/evaluations', status: 422 });
    expect(second?.id).toBeGreaterThan(first?.id);
    expect(second?.request.body.app_id).toBe('app-1');
    expect(second?.problems).toEqual(second?.response.body.detail);
    expect(second?.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'string_type', loc: ['body', 'variant_ids', 0] }),
        expect.objectContaining({ type: 'missing', loc: ['body', 'testset_id'], msg: 'Field required' }),
      ]),
    );
    expect(second?.curl).toMatch(/^curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:\d+\/api\/evaluations' /);
  });

  it('answers ?limit=N with the newest N, and a 422 naming limit for a bad one', async () => {
    const { url, origin } = await start();
    for (const id of ['a', 'b', 'c']) await fetch(`${url}/human-evaluations/${id}`);
    expect((await journal(origin, '?limit=2')).map((entry) => entry.path)).toEqual([
      '/human-evaluations/c',
      '/human-evaluations/b',
    ]);
    for (const bad of ['0', '-1', 'x', '1.5']) {
      const res = await fetch(`${origin}/__evalkit/requests?limit=${bad}`);
      expect(res.status).toBe(422);
      expect(((await res.json()) as any).detail[0].loc).toEqual(['query', 'limit']);
    }
  });

  it('keeps only the last --journal-size requests', async () => {
    const { url, origin } = await start({ journalSize: 3 });
    for (let n = 0; n < 7; n++) await fetch(`${url}/human-evaluations/id-${n}`);
    expect((await journal(origin)).map((entry) => entry.path)).toEqual([
      '/human-evaluations/id-6',
      '/human-evaluations/id-5',
      '/human-evaluations/id-4',
    ]);
  });

  it('does not journal its own routes, and stays at the root under a base path', async () => {
    const { url, origin } = await start({ basePath: '/api' });
    expect((await fetch(`${url}/__evalkit/requests`)).status).toBe(404);
    await fetch(`${origin}/__evalkit/scenario`);
    expect((await journal(origin)).map((entry) => entry.path)).toEqual(['/api/__evalkit/requests']);
  });

  it('caps the bodies it keeps, so a 1 MiB POST does not make the journal huge', async () => {
    const { url, origin } = await start();
    const big = createRequest({ correct_answer_column: 'x'.repeat(1024 * 1024 - 1000) });
    expect((await post(url, big)).status).toBe(200);
    const [entry] = await journal(origin);
    expect(entry?.request.body_truncated).toBe(true);
    expect(entry?.request.body_bytes).toBeGreaterThan(1024 * 1000);
    // Over what the journal reads to redact by structure: withheld whole, never cut unredacted.
    expect(entry?.request.body).toBe(
      `<body withheld: ${entry?.request.body_bytes} bytes, over the 64 KiB the journal reads>`,
    );
    expect(entry?.curl).toContain('--data-binary @BODY_FILE');
    expect(JSON.stringify(entry).length).toBeLessThan(4 * journalBodyCap);
    // Within what it reads, a body is redacted, then its JSON text cut at the cap.
    const plain = createRequest({ correct_answer_column: 'x'.repeat(32 * 1024) });
    expect((await post(url, plain)).status).toBe(200);
    const [cut] = await journal(origin, '?limit=1');
    expect(cut?.request.body_truncated).toBe(true);
    expect((cut?.request.body as string).length).toBe(journalBodyCap);

    // An attack's body (about 500k non-strings, no credential field) is cut the same way, and its 422 problems too.
    const attack = `{"variant_ids": [${'1,'.repeat(250_000)}1]}`;
    await fetch(`${url}/evaluations`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: attack,
    });
    const [attacked] = await journal(origin, '?limit=1');
    expect(attacked?.request).toMatchObject({ body_bytes: attack.length, body_truncated: true });
    expect(attacked?.request.body).toMatch(/^<body withheld: \d+ bytes, over the 64 KiB the journal reads>$/);
    expect(attacked?.status).toBe(422);
    expect(attacked?.problems.length).toBeLessThanOrEqual(journalProblemsCap);
    expect(JSON.stringify(attacked).length).toBeLessThan(64 * 1024);
  });
});

describe('redaction', () => {
  const credentials = {
    Authorization: `Bearer ${secret}-auth`,
    Cookie: `session=${secret}-cookie`,
    'Proxy-Authorization': `Basic ${secret}-proxy`,
    'X-Api-Key': `${secret}-api-key`,
    'X-Auth-Token': `${secret}-token`,
    'X-Client-Secret': `${secret}-client-secret`,
  };

  it('redacts credentials before storing: the secret is nowhere in the journal, events or dashboard', async () => {
    const { url, origin } = await start();
    const events = await openEvents(`${origin}/__evalkit/events`);
    try {
      await fetch(`${url}/human-evaluations/x`, { headers: credentials });
      await post(
        url,
        createRequest({ lm_providers_keys: { OPENAI_API_KEY: secret, MISTRAL_API_KEY: `${secret}-2` } }),
        credentials,
      );
      // Invalid bodies are journaled too, and with the credential where the schema does not expect it.
      await post(
        url,
        createRequest({ lm_providers_keys: { OPENAI_API_KEY: 42, nested: { lm_providers_keys: { X: secret } } } }),
        credentials,
      );
      // Malformed JSON: its text is withheld, not searched.
      await fetch(`${url}/evaluations`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: `{"lm_providers_keys": {"A": "${secret}"`,
      });
      await events.next((event) => event.event === 'message' && JSON.parse(event.data).id === 4);
      const entries = await journal(origin);
      const dashboard = await (await fetch(`${origin}/__evalkit/`)).text();
      for (const text of [JSON.stringify(entries), events.events.map((event) => event.data).join('\n'), dashboard])
        expect(text).not.toContain(secret);

      const [malformed, nested, valid, get] = entries;
      expect(get?.request.headers).toMatchObject({
        authorization: '<AUTHORIZATION>',
        cookie: '<COOKIE>',
        'proxy-authorization': '<PROXY-AUTHORIZATION>',
        'x-api-key': '<X-API-KEY>',
        'x-auth-token': '<X-AUTH-TOKEN>',
        'x-client-secret': '<X-CLIENT-SECRET>',
      });
      expect(valid?.status).toBe(200);
      expect(valid?.request.body.lm_providers_keys).toEqual({
        OPENAI_API_KEY: '<PROVIDER_KEY>',
        MISTRAL_API_KEY: '<PROVIDER_KEY>',
      });
      expect(valid?.curl).toContain(`-H 'authorization: <AUTHORIZATION>'`);
      expect(valid?.curl).toContain('<PROVIDER_KEY>');
      expect(nested?.request.body.lm_providers_keys.nested).toEqual('<PROVIDER_KEY>');
      expect(malformed?.status).toBe(422);
      expect(malformed?.request.body).toMatch(/^<body withheld: \d+ bytes, not JSON>$/);
    } finally {
      events.close();
    }
  });
});

describe('the query', () => {
  it('is kept with each credential value a placeholder, in the entry and its curl', async () => {
    const { url, origin } = await start();
    const query = `page=2&api_key=${secret}&x-session=${encodeURIComponent(secret)}&sig=${secret}-sig`;
    await fetch(`${url}/human-evaluations/x?${query}`);
    await fetch(`${url}/human-evaluations/y`);
    const [plain, queried] = await journal(origin);
    expect(JSON.stringify([plain, queried])).not.toContain(secret);
    expect(queried?.path).toBe('/human-evaluations/x');
    expect(queried?.query).toBe('page=2&api_key=<API_KEY>&x-session=<X-SESSION>&sig=<SIG>');
    expect(queried?.curl).toContain('/human-evaluations/x?page=2&api_key=<API_KEY>&x-session=<X-SESSION>&sig=<SIG>');
    expect(plain?.query).toBe('');
  });
});

describe('DELETE /__evalkit/requests', () => {
  it('answers 204 and empties the journal; ids keep counting', async () => {
    const { url, origin } = await start();
    await fetch(`${url}/human-evaluations/a`);
    const res = await fetch(`${origin}/__evalkit/requests`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(await journal(origin)).toEqual([]);
    await fetch(`${url}/human-evaluations/b`);
    const [entry] = await journal(origin);
    expect(entry).toMatchObject({ id: 2, path: '/human-evaluations/b' });
  });
});

describe('--no-journal', () => {
  it('keeps nothing and says so on the journal routes, while the scenario routes work', async () => {
    const { url, origin } = await start({ journalSize: 0 });
    expect((await fetch(`${url}/human-evaluations/a`)).status).toBe(200);
    const res = await fetch(`${origin}/__evalkit/requests`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as any).detail).toMatch(/--no-journal/);
    expect((await fetch(`${origin}/__evalkit/scenario`)).status).toBe(200);
  });

  it('refuses a journal size it cannot keep', async () => {
    await expect(start({ journalSize: -1 })).rejects.toThrow(/journal size must be an integer/);
  });
});

describe('the control room routes', () => {
  it('answer an unknown route 404 and another method 405 with Allow, in JSON', async () => {
    const { origin } = await start();
    const missing = await fetch(`${origin}/__evalkit/nothing`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).detail).toMatch(/\/__evalkit\/requests/);
    const wrong = await fetch(`${origin}/__evalkit/requests`, { method: 'POST' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, DELETE, HEAD');
  });

  it('serve the OpenAPI document the dashboard links to', async () => {
    const { origin } = await start();
    const res = await fetch(`${origin}/__evalkit/openapi.json`);
    expect(res.status).toBe(200);
    const document = (await res.json()) as any;
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(['/human-evaluations/{evaluation_id}', '/evaluations']);
    expect(await (await fetch(`${origin}/__evalkit/`)).text()).toContain('href="/__evalkit/openapi.json"');
  });
});
