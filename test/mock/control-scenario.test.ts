import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mockServers, openEvents } from './control-helpers.js';
import { createRequest } from './helpers.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';

const start = mockServers();
afterAll(removeTempDirs);

function scenario(origin: string, method = 'GET', body?: unknown, contentType = 'application/json'): Promise<Response> {
  return fetch(`${origin}/__evalkit/scenario`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': contentType },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const startupFile = {
  scenario: { latency: '0-1' },
  operations: { createEvaluations: { state: 'finished' } },
  humanEvaluations: { missing: { code: 404 } },
};

describe('/__evalkit/scenario', () => {
  it('GET answers the scenario in force in the --scenarios file shape, flags folded into scenario', async () => {
    const dir = tempDir('evalkit-scenario-');
    const file = join(dir, 'scenarios.json');
    writeFileSync(file, JSON.stringify(startupFile));
    const { origin } = await start({ scenarioFile: file, seed: 7, scenario: { nullable: true } });
    const res = await scenario(origin);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      scenario: { latency: '0-1', nullable: true, profile: 'mixed', seed: '7' },
      operations: { createEvaluations: { state: 'EVALUATION_FINISHED' } },
      humanEvaluations: { missing: { code: 404 } },
    });
  });

  it('PUT replaces it for the next requests; DELETE restores the start-up one', async () => {
    const { url, origin } = await start({ seed: 3 });
    const startup = await (await scenario(origin)).json();
    const put = await scenario(origin, 'PUT', {
      scenario: { seed: 3 },
      operations: { fetchHumanEvaluation: { code: 500 }, createEvaluations: { state: 'failed' } },
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({
      scenario: { profile: 'mixed', seed: '3' },
      operations: { fetchHumanEvaluation: { code: 500 }, createEvaluations: { state: 'EVALUATION_FAILED' } },
      humanEvaluations: {},
    });
    const get = await fetch(`${url}/human-evaluations/x`);
    expect(get.status).toBe(500);
    expect(await get.json()).toEqual({ detail: 'An error occurred while fetching the human evaluation' });
    const created = await fetch(`${url}/evaluations`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(createRequest()),
    });
    expect(((await created.json()) as any)[0].status.value).toBe('EVALUATION_FAILED');

    const restored = await scenario(origin, 'DELETE');
    expect(restored.status).toBe(200);
    expect(await restored.json()).toEqual(startup);
    expect((await fetch(`${url}/human-evaluations/x`)).status).toBe(200);
  });

  it('a GET answer PUT back makes the same scenario', async () => {
    const { origin } = await start({ scenario: { latency: '1-2', state: 'started' }, profile: 'full' });
    const before = await (await scenario(origin)).json();
    expect(await (await scenario(origin, 'PUT', before)).json()).toEqual(before);
  });

  it('Prefer still overrides the scenario put in force, key by key; the journal names the one applied', async () => {
    const { url, origin } = await start();
    await scenario(origin, 'PUT', { operations: { fetchHumanEvaluation: { code: 503, state: 'started' } } });
    const res = await fetch(`${url}/human-evaluations/x`, { headers: { Prefer: 'code=200' } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).status).toBe('EVALUATION_STARTED');
    expect((await fetch(`${url}/human-evaluations/x`)).status).toBe(503);
    const { requests } = (await (await fetch(`${origin}/__evalkit/requests`)).json()) as any;
    expect(requests.map((entry: any) => entry.scenario)).toEqual([
      { code: 503, state: 'EVALUATION_STARTED', profile: 'mixed', seed: '1' },
      { code: 200, state: 'EVALUATION_STARTED', profile: 'mixed', seed: '1' },
    ]);
  });

  it('a bad PUT gets a clear 4xx naming the problem, and the old scenario stays in force', async () => {
    const { url, origin } = await start();
    await scenario(origin, 'PUT', { operations: { fetchHumanEvaluation: { code: 404 } } });
    const bad: Array<[unknown, number, RegExp, string?]> = [
      [
        { operations: { fetchHumanEvaluation: { code: 418 } } },
        422,
        /operations\.fetchHumanEvaluation: scenario key 'code' accepts 200, 401.*unchanged/,
      ],
      [{ operations: { deleteEvaluation: {} } }, 422, /unknown operation 'deleteEvaluation'/],
      [{ scenarios: {} }, 422, /unknown section 'scenarios'/],
      [{ scenario: { latency: '5-1' } }, 422, /scenario key 'latency' accepts MS or MIN-MAX/],
      [[], 422, /the top level must be an object/],
      ['{"operations": ', 400, /not valid JSON/],
      ['operations', 415, /Content-Type must be application\/json/, 'text/plain'],
      [`{"scenario": {"seed": "${'x'.repeat(2 * 1024 * 1024)}"}}`, 413, /1 MiB limit/],
    ];
    for (const [body, status, detail, contentType] of bad) {
      const res = await scenario(origin, 'PUT', body, contentType);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(((await res.json()) as any).detail).toMatch(detail);
    }
    const empty = await fetch(`${origin}/__evalkit/scenario`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(empty.status).toBe(422);
    expect(((await (await scenario(origin)).json()) as any).operations).toEqual({
      fetchHumanEvaluation: { code: 404 },
    });
    expect((await fetch(`${url}/human-evaluations/x`)).status).toBe(404);
  });

  it('PATCH merges rules into the scenario in force: the others stay; null removes a key or a rule', async () => {
    const { url, origin } = await start({ seed: 3 });
    await scenario(origin, 'PUT', {
      scenario: { seed: 3 },
      operations: { createEvaluations: { state: 'failed', latency: '0-1' } },
    });
    const added = await scenario(origin, 'PATCH', { humanEvaluations: { gone: { code: 404 } } });
    expect(added.status).toBe(200);
    expect(await added.json()).toEqual({
      scenario: { profile: 'mixed', seed: '3' },
      operations: { createEvaluations: { state: 'EVALUATION_FAILED', latency: '0-1' } },
      humanEvaluations: { gone: { code: 404 } },
    });
    expect((await fetch(`${url}/human-evaluations/gone`)).status).toBe(404);
    const merged = await scenario(origin, 'PATCH', {
      operations: { createEvaluations: { latency: null, code: 503 }, fetchHumanEvaluation: { code: 500 } },
      humanEvaluations: { gone: null },
    });
    expect(((await merged.json()) as any).operations).toEqual({
      createEvaluations: { code: 503, state: 'EVALUATION_FAILED' },
      fetchHumanEvaluation: { code: 500 },
    });
    expect((await fetch(`${url}/human-evaluations/gone`)).status).toBe(500);
    const emptied = await scenario(origin, 'PATCH', { operations: { fetchHumanEvaluation: { code: null } } });
    expect(((await emptied.json()) as any).operations).toEqual({
      createEvaluations: { code: 503, state: 'EVALUATION_FAILED' },
    });
  });

  it("HEAD on the room's pages is their GET without the body; Allow names it", async () => {
    const { origin } = await start();
    for (const path of ['/__evalkit/', '/__evalkit/scenario', '/__evalkit/requests']) {
      const res = await fetch(`${origin}${path}`, { method: 'HEAD' });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^(text\/html|application\/json)/);
      expect(await res.text()).toBe('');
    }
    const post = await fetch(`${origin}/__evalkit/scenario`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, PUT, PATCH, DELETE, HEAD');
  });

  it("PATCH takes RFC 7396's own media type, application/merge-patch+json, as a JSON Merge Patch", async () => {
    const { origin } = await start();
    const body = { operations: { fetchHumanEvaluation: { code: 503 } } };
    const res = await scenario(origin, 'PATCH', body, 'application/merge-patch+json');
    expect(res.status).toBe(200);
    expect(((await (await scenario(origin)).json()) as any).operations).toEqual({
      fetchHumanEvaluation: { code: 503 },
    });
  });

  it('a bad PATCH gets the 4xx a bad PUT gets, and the scenario in force stays', async () => {
    const { origin } = await start();
    await scenario(origin, 'PUT', { operations: { fetchHumanEvaluation: { code: 404 } } });
    const bad: Array<[unknown, number, RegExp, string?]> = [
      [
        { operations: { createEvaluations: { code: 418 } } },
        422,
        /operations\.createEvaluations: scenario key 'code' accepts 200, 401.*unchanged/,
      ],
      [{ operations: { deleteEvaluation: { code: 500 } } }, 422, /unknown operation 'deleteEvaluation'/],
      [[], 422, /a PATCH body is an object of the sections to merge.*unchanged/],
      [{ operations: 5 }, 422, /operations/],
      ['{"operations": ', 400, /not valid JSON/],
      ['operations', 415, /Content-Type must be application\/json/, 'text/plain'],
    ];
    for (const [body, status, detail, contentType] of bad) {
      const res = await scenario(origin, 'PATCH', body, contentType);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(((await res.json()) as any).detail).toMatch(detail);
    }
    expect(((await (await scenario(origin)).json()) as any).operations).toEqual({
      fetchHumanEvaluation: { code: 404 },
    });
  });

  it('a name of 500,000 characters is refused by its start: the answer stays the size of its reason', async () => {
    const { origin } = await start();
    const long = 'x'.repeat(500_000);
    for (const [method, body] of [
      ['PUT', { [long]: {} }],
      ['PATCH', { operations: { [long]: { code: 500 } } }],
      ['PUT', { humanEvaluations: { [long]: { code: 'teapot' } } }],
      ['PATCH', { humanEvaluations: { [long]: { [long]: 1 } } }],
    ] as const) {
      const res = await scenario(origin, method, body);
      const text = await res.text();
      expect(res.status, `${method} ${text.slice(0, 80)}`).toBe(422);
      expect(text.length).toBeLessThan(2048);
      expect(text).toContain(`${'x'.repeat(40)}…`);
    }
  });

  it('suggests what a typed body meant: a section, an operation, a key written at the top level', async () => {
    const { origin } = await start();
    const detail = async (body: unknown) => ((await (await scenario(origin, 'PUT', body)).json()) as any).detail;
    expect(await detail({ scenarios: {} })).toMatch(/unknown section 'scenarios'; did you mean scenario\?/);
    expect(await detail({ stat: 'failed' })).toMatch(/did you mean \{"scenario": \{"state": …\}\}\?/);
    expect(await detail({ operations: { fetchHumanEvaluations: {} } })).toMatch(/did you mean fetchHumanEvaluation\?/);
  });

  it('refuses a key or value inside a section with the words Prefer uses, its did-you-mean included', async () => {
    const { origin } = await start();
    const prefer = async (preference: string) => {
      const res = await fetch(`${origin}/human-evaluations/abc`, { headers: { Prefer: preference } });
      return ((await res.json()) as { detail: string }).detail;
    };
    const refused = async (method: string, body: unknown) => {
      const res = await scenario(origin, method, body);
      expect(res.status).toBe(422);
      return ((await res.json()) as { detail: string }).detail;
    };
    for (const [key, value] of [
      ['stat', 'failed'],
      ['state', 'faild'],
      ['state', 'EVALUATION_FAILD'],
      ['code', '4044'],
      ['era', '0.14'],
      ['nullable', 'ture'],
    ] as const) {
      const words = await prefer(`${key}=${value}`);
      expect(words).toMatch(/did you mean|no era describes/);
      expect(await refused('PUT', { scenario: { [key]: value } })).toContain(`scenario: ${words}`);
      expect(await refused('PATCH', { operations: { createEvaluations: { [key]: value } } })).toContain(
        `operations.createEvaluations: ${words}`,
      );
      expect(await refused('PUT', { humanEvaluations: { abc: { [key]: value } } })).toContain(`abc: ${words}`);
    }
  });

  it('refuses a PATCH from another site, origin or form exactly as a PUT', async () => {
    const { origin } = await start();
    const body = JSON.stringify({ operations: { fetchHumanEvaluation: { code: 500 } } });
    const refusals: Array<Record<string, string>> = [
      { 'Content-Type': 'text/plain' },
      { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'cross-site' },
      { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-site' },
      { 'Content-Type': 'application/json', Origin: 'http://localhost:5173' },
      { 'Content-Type': 'application/json', 'X-HTTP-Method-Override': 'PATCH' },
    ];
    for (const headers of refusals) {
      const answers = await Promise.all(
        ['PUT', 'PATCH'].map((method) => fetch(`${origin}/__evalkit/scenario`, { method, headers, body })),
      );
      const [put, patch] = await Promise.all(answers.map(async (res) => [res.status, await res.json()]));
      expect(patch, JSON.stringify(headers)).toEqual(put);
      expect(put?.[0]).toBeGreaterThanOrEqual(400);
    }
    expect(((await (await scenario(origin)).json()) as any).operations).toEqual({});
  });

  it('tells event clients when the scenario changes', async () => {
    const { origin } = await start();
    const events = await openEvents(`${origin}/__evalkit/events`);
    try {
      await scenario(origin, 'PUT', { operations: { createEvaluations: { code: 429 } } });
      const event = await events.next((candidate) => candidate.event === 'scenario');
      expect(JSON.parse(event.data).operations).toEqual({ createEvaluations: { code: 429 } });
    } finally {
      events.close();
    }
  });
});
