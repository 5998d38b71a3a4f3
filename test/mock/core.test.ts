import { describe, expect, it } from 'vitest';
import { createMockCore, handleFetch, MockSetupError, type MockAnswer } from '../../mock/index.js';
import { createRequest, expectEvaluations, expectValid } from './helpers.js';

const decode = (answer: MockAnswer) => JSON.parse(new TextDecoder().decode(answer.body));

describe('createMockCore: the mock on plain objects', () => {
  const core = createMockCore({ seed: 'core', basePath: '/api' });

  it('answers a GET synchronously, with the same bytes for the same id', () => {
    const request = { method: 'GET', url: '/api/human-evaluations/abc', headers: {} };
    const answer = core.handle(request) as MockAnswer;
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer.status).toBe(200);
    expect(answer.headers['Content-Type']).toBe('application/json');
    expectValid('HumanEvaluation', decode(answer));
    expect((core.handle(request) as MockAnswer).body).toEqual(answer.body);
  });

  it('reads a body only once the operation takes one, whatever its media type (FastAPI validates any)', async () => {
    let reads = 0;
    const body = () => {
      reads++;
      return new TextEncoder().encode(JSON.stringify(createRequest()));
    };
    const headers = { 'content-type': 'text/plain', 'content-length': '10' };
    expect((await core.handle({ method: 'POST', url: '/api/other', headers, body })).status).toBe(404);
    expect((await core.handle({ method: 'PUT', url: '/api/evaluations', headers, body })).status).toBe(405);
    expect(reads).toBe(0);
    expect((await core.handle({ method: 'POST', url: '/api/evaluations', headers, body })).status).toBe(422);
    expect(reads).toBe(1);
    reads = 0;
    const created = await core.handle({
      method: 'POST',
      url: '/api/evaluations',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(reads).toBe(1);
    expect(expectEvaluations(decode(created))).toHaveLength(2);
  });

  it('turns a body reader failing with an unforeseen error into a 500, reported by message only', async () => {
    const lines: string[] = [];
    const logged = createMockCore({ log: (line) => lines.push(line) });
    const answer = await logged.handle({
      method: 'POST',
      url: 'http://host/evaluations',
      headers: { 'content-type': 'application/json' },
      body: () => Promise.reject(new Error('disk on fire')),
    });
    expect(answer.status).toBe(500);
    expect(lines).toEqual(['mock: internal error: disk on fire']);
  });

  it('tells which URLs are its own: everything under a base path, only the operations at the root', () => {
    expect(core.serves('http://x/api/nope')).toBe(true);
    expect(core.serves('/apis/evaluations')).toBe(false);
    const atRoot = createMockCore();
    expect(atRoot.serves('/evaluations?x=1')).toBe(true);
    expect(atRoot.serves('http://x/human-evaluations/a')).toBe(true);
    expect(atRoot.serves('/favicon.ico')).toBe(false);
  });

  it('handleFetch answers a Fetch Request with a Response', async () => {
    const res = await handleFetch(
      core,
      new Request('http://x/api/human-evaluations/abc', { headers: { Prefer: 'state=failed' } }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('preference-applied')).toBe('state=EVALUATION_FAILED');
    expect(((await res.json()) as { status: string }).status).toBe('EVALUATION_FAILED');
  });

  it('refuses invalid options with a MockSetupError', () => {
    expect(() => createMockCore({ basePath: 'api v1' })).toThrow(MockSetupError);
    expect(() => createMockCore({ scenarios: { operations: { deleteEverything: {} } } })).toThrow(
      /unknown operation 'deleteEverything'/,
    );
    // A library caller's CORS origins are checked as the CLI's are: a browser never sends a path in Origin.
    expect(() => createMockCore({ cors: ['http://localhost:5173/app'] })).toThrow(
      /--cors-origin must be an origin like http:\/\/localhost:5173 .*got 'http:\/\/localhost:5173\/app'/,
    );
    expect(() => createMockCore({ cors: ['http://localhost:5173', '*'] })).not.toThrow();
  });
});
