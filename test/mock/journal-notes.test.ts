import { describe, expect, it } from 'vitest';
import { mockServers } from './control-helpers.js';
import { createRequest, sdkCreateRequest, secret } from './helpers.js';

const start = mockServers();

async function entries(origin: string): Promise<Array<Record<string, any>>> {
  const res = await fetch(`${origin}/__evalkit/requests`);
  return ((await res.json()) as { requests: Array<Record<string, any>> }).requests;
}

function post(url: string, body: unknown, prefer?: string): Promise<Response> {
  return fetch(`${url}/evaluations`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(prefer && { Prefer: prefer }) },
    body: JSON.stringify(body),
  });
}

describe('the journal notes each null optional field the mock read as absent, never a value', () => {
  it('an SDK-shaped create gets 200 and a note per null field, a body without nulls none', async () => {
    const { url, origin } = await start();
    expect((await post(url, sdkCreateRequest())).status).toBe(200);
    expect((await post(url, createRequest())).status).toBe(200);
    const [plain, sdk] = await entries(origin);
    expect(sdk?.notes).toEqual([
      'lm_providers_keys: null read as absent',
      'correct_answer_column: null read as absent',
    ]);
    expect(plain?.notes).toEqual([]);
    expect([sdk?.served, plain?.served]).toEqual(['mock', 'mock']);
    expect(JSON.stringify(await entries(origin))).not.toContain(secret);
  });

  it('a 422 for another field still notes the null read as absent; strictNulls reads none and notes none', async () => {
    const { url, origin } = await start();
    expect((await post(url, { ...sdkCreateRequest(), app_id: 7 })).status).toBe(422);
    expect((await post(url, sdkCreateRequest(), 'strictNulls=true')).status).toBe(422);
    const [strict, other] = await entries(origin);
    expect(other?.notes).toEqual([
      'lm_providers_keys: null read as absent',
      'correct_answer_column: null read as absent',
    ]);
    expect(strict?.notes).toEqual([]);
  });
});
