import { describe, expect, it } from 'vitest';
import { journal, mockServers, post } from './control-helpers.js';
import { createRequest, sdkCreateRequest, secret } from './helpers.js';

const start = mockServers();

describe('the journal notes each null optional field the mock read as absent, never a value', () => {
  it('an SDK-shaped create gets 200 and a note per null field, a body without nulls none', async () => {
    const { url, origin } = await start();
    expect((await post(url, sdkCreateRequest())).status).toBe(200);
    expect((await post(url, createRequest())).status).toBe(200);
    const [plain, sdk] = await journal(origin);
    expect(sdk?.notes).toEqual([
      'lm_providers_keys: null read as absent',
      'correct_answer_column: null read as absent',
    ]);
    expect(plain?.notes).toEqual([]);
    expect([sdk?.served, plain?.served]).toEqual(['mock', 'mock']);
    expect(JSON.stringify(await journal(origin))).not.toContain(secret);
  });

  it('a 422 for another field still notes the null read as absent; strictNulls reads none and notes none', async () => {
    const { url, origin } = await start();
    expect((await post(url, { ...sdkCreateRequest(), app_id: 7 })).status).toBe(422);
    expect((await post(url, sdkCreateRequest(), { Prefer: 'strictNulls=true' })).status).toBe(422);
    const [strict, other] = await journal(origin);
    expect(other?.notes).toEqual([
      'lm_providers_keys: null read as absent',
      'correct_answer_column: null read as absent',
    ]);
    expect(strict?.notes).toEqual([]);
  });
});
