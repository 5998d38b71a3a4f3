import fc from 'fast-check';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createMockApp, type MockAnswer } from '../../mock/index.js';
import { controlRoom } from '../../mock/control/control-room.js';
import { mockCore } from '../../mock/core/handle.js';
import { resolveMockOptions } from '../../mock/core/options.js';
import { scenarioCodes } from '../../mock/core/scenario-answers.js';
import {
  maxSessions,
  maxSessionScenarioChars,
  sessionIdleMs,
  sessionRoute,
  Sessions,
  sessionCookie,
  sessionHeader,
} from '../../mock/core/sessions.js';
import { ScenarioBook } from '../../mock/core/scenario-book.js';
import { evaluationStates } from '../../generators/vocabulary.js';
import { runs } from '../properties/runs.js';

const now = '2025-06-01T12:00:00Z';
const decode = (answer: MockAnswer) => JSON.parse(new TextDecoder().decode(answer.body)) as Record<string, unknown>;

/** A core and its settled options, so a test can set a session's scenario as the control room does. */
function coreWith(options: Parameters<typeof resolveMockOptions>[0] = {}) {
  const config = resolveMockOptions({ now, ...options });
  return { config, core: mockCore(config) };
}

function fetchOf(core: ReturnType<typeof mockCore>, url: string, headers: Record<string, string> = {}): MockAnswer {
  return core.handle({ method: 'GET', url, headers }) as MockAnswer;
}

describe('sessionRoute: the session a request names', () => {
  it('reads the path prefix first, then the header, then the cookie; none is the server', () => {
    const cookie = { cookie: `theme=dark; ${sessionCookie}=from-cookie; other=1` };
    expect(sessionRoute('/__sessions/w1/api/x?y=1', { [sessionHeader]: 'h', ...cookie })).toEqual({
      session: 'w1',
      url: '/api/x?y=1',
    });
    expect(sessionRoute('http://mock.test/__sessions/w1/x', {})).toEqual({ session: 'w1', url: 'http://mock.test/x' });
    expect(sessionRoute('/x', { [sessionHeader]: 'h', ...cookie })).toEqual({ session: 'h', url: '/x' });
    expect(sessionRoute('/x', cookie)).toEqual({ session: 'from-cookie', url: '/x' });
    expect(sessionRoute('/x', { cookie: 'evalkit-session-old=1' })).toBeUndefined();
    expect(sessionRoute('/__sessionsx/y', {})).toBeUndefined();
  });

  it('refuses a name that is no path segment, saying where it was and the rule', () => {
    for (const [url, headers, where] of [
      ['/__sessions/../human-evaluations/x', {}, 'path prefix'],
      ['/__sessions//x', {}, 'path prefix'],
      ['/x', { [sessionHeader]: 'a b' }, sessionHeader],
      ['/x', { cookie: `${sessionCookie}=${'n'.repeat(65)}` }, sessionCookie],
    ] as const)
      expect(() => sessionRoute(url, headers)).toThrow(new RegExp(`${where}.*a session name is 1 to 64`));
  });

  it('property: any name of the rule is read back from each carrier; any other is refused, never routed', () => {
    const nameChar = fc.constantFrom(...'abcXYZ019._~-'.split(''));
    const name = fc.string({ unit: nameChar, minLength: 1, maxLength: 64 }).filter((n) => n !== '.' && n !== '..');
    fc.assert(
      fc.property(name, fc.constantFrom('prefix', 'header', 'cookie'), (session, carrier) => {
        const routed =
          carrier === 'prefix'
            ? sessionRoute(`/__sessions/${session}/human-evaluations/a`, {})
            : sessionRoute(
                '/human-evaluations/a',
                carrier === 'header'
                  ? { [sessionHeader]: session }
                  : {
                      cookie: `${sessionCookie}=${session}`,
                    },
              );
        expect(routed).toEqual({ session, url: '/human-evaluations/a' });
      }),
      runs(200),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        fc.pre(!/^[A-Za-z0-9._~-]{1,64}$/.test(text) || text === '.' || text === '..');
        expect(() => sessionRoute('/x', { [sessionHeader]: text })).toThrow(/a session name is/);
      }),
      runs(200),
    );
  });
});

describe('a session answers by its own scenario over the server', () => {
  it('wins over the server at every level where it sets a key; a key it leaves is the server', () => {
    const { config, core } = coreWith({
      scenarios: {
        scenario: { state: 'failed', seed: 'server' },
        operations: { createEvaluations: { code: 503 } },
        humanEvaluations: { special: { code: 404 } },
      },
    });
    config.sessions.replace('s1', { scenario: { code: 200, state: 'started' } });
    const server = decode(fetchOf(core, '/human-evaluations/a'));
    const inSession = fetchOf(core, '/human-evaluations/a', { [sessionHeader]: 's1' });
    expect(server.status).toBe('EVALUATION_FAILED');
    expect(decode(inSession).status).toBe('EVALUATION_STARTED');
    // The seed is the server's: the same record but for the state the session set.
    expect(decode(inSession).id).toBe(server.id);
    // The session's general code wins over the server's rules for an id and for an operation.
    expect(fetchOf(core, '/human-evaluations/special').status).toBe(404);
    expect(fetchOf(core, '/human-evaluations/special', { [sessionHeader]: 's1' }).status).toBe(200);
    // A session with no scenario of its own is the server, throughout.
    expect(fetchOf(core, '/human-evaluations/special', { [sessionHeader]: 's2' }).status).toBe(404);
    expect(decode(fetchOf(core, '/human-evaluations/a', { [sessionHeader]: 's2' }))).toEqual(server);
  });

  it('follows the server scenario the control room puts in force, where the session sets nothing', () => {
    const { config, core } = coreWith();
    config.sessions.replace('s1', { scenario: { state: 'started' } });
    config.scenarios.current = ScenarioBook.fromData({ scenario: { code: 429, nullable: true } });
    const answer = fetchOf(core, '/human-evaluations/a', { [sessionHeader]: 's1' });
    expect(answer.status).toBe(429);
    config.scenarios.current = ScenarioBook.fromData({ scenario: { nullable: true } });
    const record = decode(fetchOf(core, '/human-evaluations/a', { [sessionHeader]: 's1' }));
    expect(record.status).toBe('EVALUATION_STARTED');
  });

  it('moves its own progress clock: a record polled in one session starts over in another', () => {
    let moment = Date.parse(now);
    const { config, core } = coreWith({ now: () => new Date(moment), progress: 1000 });
    const stateIn = (session: string) =>
      decode(fetchOf(core, '/human-evaluations/polled', { [sessionHeader]: session })).status;
    expect(stateIn('a')).toBe('EVALUATION_INITIALIZED');
    moment += 1500;
    expect(stateIn('a')).toBe('EVALUATION_STARTED');
    expect(stateIn('b')).toBe('EVALUATION_INITIALIZED');
    expect(decode(fetchOf(core, '/human-evaluations/polled')).status).toBe('EVALUATION_INITIALIZED');
    moment += 3000;
    expect(stateIn('a')).toBe('EVALUATION_FINISHED');
    expect(config.sessions.list().map((session) => session.name)).toEqual(['b', 'a']);
  });

  it('property: any scenario per session, any interleaving: each answer is what its scenario alone answers', () => {
    const scenario = fc.record(
      {
        code: fc.constantFrom(...scenarioCodes),
        state: fc.constantFrom(...evaluationStates),
        nullable: fc.boolean(),
        profile: fc.constantFrom('minimal', 'full', 'mixed', 'edge'),
        seed: fc.string({ minLength: 1, maxLength: 8 }),
        era: fc.constantFrom('0.17', '0.18', '0.19'),
      },
      { requiredKeys: [] },
    );
    const step = fc.record({
      session: fc.nat(4),
      id: fc.constantFrom('a', 'b', '6637c0a25368ef07b03a64cd'),
      carrier: fc.constantFrom('prefix', 'header', 'cookie'),
    });
    fc.assert(
      fc.property(
        fc.array(scenario, { minLength: 5, maxLength: 5 }),
        scenario,
        fc.array(step, { minLength: 1, maxLength: 30 }),
        (sessions, server, steps) => {
          const shared = coreWith({ scenario: server });
          sessions.forEach((own, index) => shared.config.sessions.replace(`s${index}`, { scenario: own }));
          // What each session's scenario alone answers: a mock whose server scenario is the server's, then its own.
          const alone = sessions.map((own) => coreWith({ scenario: { ...server, ...own } }).core);
          for (const { session, id, carrier } of steps) {
            const name = `s${session}`;
            const path = `/human-evaluations/${id}`;
            const answer =
              carrier === 'prefix'
                ? fetchOf(shared.core, `/__sessions/${name}${path}`)
                : fetchOf(
                    shared.core,
                    path,
                    carrier === 'header'
                      ? { [sessionHeader]: name }
                      : {
                          cookie: `${sessionCookie}=${name}`,
                        },
                  );
            const expected = fetchOf(alone[session] as ReturnType<typeof mockCore>, path);
            expect(answer.status).toBe(expected.status);
            expect(Buffer.from(answer.body ?? []).toString()).toBe(Buffer.from(expected.body ?? []).toString());
          }
        },
      ),
      runs(60),
    );
  });
});

describe('sessions are bounded', () => {
  it(`keeps at most ${maxSessions} (the least recently used dropped), however many names requests carry`, () => {
    const { config, core } = coreWith();
    config.sessions.replace('kept', { scenario: { code: 503 } });
    for (let index = 0; index < 100_000; index++) fetchOf(core, `/__sessions/n${index}/human-evaluations/a`);
    expect(config.sessions.list()).toHaveLength(maxSessions);
    // `kept` was the least recently used long ago: it starts over, the server's.
    expect(fetchOf(core, '/human-evaluations/a', { [sessionHeader]: 'kept' }).status).toBe(200);
  });

  it(`drops a session unused for ${sessionIdleMs / 60_000} minutes when it is named again`, () => {
    let moment = 0;
    const { config } = coreWith();
    const sessions = new Sessions(config.scenarios, () => moment);
    sessions.replace('idle', { scenario: { code: 503 } });
    moment += sessionIdleMs;
    expect(sessions.scenario('idle').scenario).toEqual({ code: 503 });
    moment += sessionIdleMs + 1;
    expect(sessions.scenario('idle').scenario).toEqual({});
  });

  it('starts a session dropped for idleness over: its progress clock too', () => {
    let moment = Date.parse(now);
    const { config } = coreWith({ now: () => new Date(moment), progress: 1000 });
    const sessions = new Sessions(config.scenarios, () => moment);
    const phase = () =>
      sessions.context('s').progress.phaseOf('polled', moment * 1000, 1000, 'EVALUATION_FINISHED').state;
    expect(phase()).toBe('EVALUATION_INITIALIZED');
    moment += 1500;
    expect(phase()).toBe('EVALUATION_STARTED');
    // A new scenario keeps the record moving.
    sessions.replace('s', { scenario: { seed: 'x' } });
    expect(phase()).toBe('EVALUATION_STARTED');
    moment += sessionIdleMs + 1;
    expect(phase()).toBe('EVALUATION_INITIALIZED');
  });
});

describe('the control room: /__evalkit/sessions/NAME/scenario and the journal by session', () => {
  const app = createMockApp({ now });
  const room = (path: string) => `/__evalkit${path}`;

  it('PUT, PATCH, GET and DELETE a session scenario with the bodies /__evalkit/scenario takes', async () => {
    await request(app)
      .put(room('/sessions/w1/scenario'))
      .send({ scenario: { code: 404 } })
      .expect(200);
    await request(app)
      .patch(room('/sessions/w1/scenario'))
      .send({ operations: { createEvaluations: { code: 503 } } })
      .expect(200, { scenario: { code: 404 }, operations: { createEvaluations: { code: 503 } }, humanEvaluations: {} });
    await request(app).get('/human-evaluations/x').set(sessionHeader, 'w1').expect(404);
    await request(app).get('/human-evaluations/x').set(sessionHeader, 'w2').expect(200);
    await request(app).get('/human-evaluations/x').expect(200);
    const listed = await request(app).get(room('/sessions')).expect(200);
    expect(listed.body.sessions.map((session: { name: string }) => session.name)).toEqual(
      expect.arrayContaining(['w1', 'w2']),
    );
    await request(app)
      .delete(room('/sessions/w1/scenario'))
      .expect(200, { scenario: {}, operations: {}, humanEvaluations: {} });
    await request(app).get('/human-evaluations/x').set(sessionHeader, 'w1').expect(200);
  });

  it(`refuses a session scenario over ${maxSessionScenarioChars} characters, keeping the one in force`, async () => {
    await request(app)
      .put(room('/sessions/big/scenario'))
      .send({ scenario: { code: 404 } })
      .expect(200);
    const rules = Object.fromEntries(Array.from({ length: 1000 }, (_, index) => [`id-${index}`, { code: 404 }]));
    const refused = await request(app).put(room('/sessions/big/scenario')).send({ humanEvaluations: rules });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toMatch(/a session's scenario is at most 16384 characters of JSON, this one \d+/);
    await request(app)
      .get(room('/sessions/big/scenario'))
      .expect(200, {
        scenario: { code: 404 },
        operations: {},
        humanEvaluations: {},
      });
  });

  it('refuses a bad session scenario in the parser words, and a bad name saying the rule', async () => {
    const bad = await request(app)
      .put(room('/sessions/w1/scenario'))
      .send({ scenario: { stat: 'failed' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toMatch(/did you mean state\?.*the scenario in force is unchanged/);
    const name = await request(app).put(room('/sessions/..%2F/scenario')).send({});
    expect(name.status).toBe(400);
    expect(name.body.detail).toMatch(/a session name is 1 to 64/);
    await request(app).get('/human-evaluations/x').set(sessionHeader, 'a b').expect(400);
  });

  it('keeps the session of each entry, its path without the prefix, and lists one session alone', async () => {
    await request(app).delete(room('/requests')).expect(204);
    await request(app).get('/__sessions/j1/human-evaluations/one').expect(200);
    await request(app).get('/human-evaluations/two').set('Cookie', `${sessionCookie}=j2`).expect(200);
    await request(app).get('/human-evaluations/three').expect(200);
    const all = (await request(app).get(room('/requests')).expect(200)).body.requests;
    expect(all.map((entry: { path: string; session: string | null }) => [entry.path, entry.session])).toEqual([
      ['/human-evaluations/three', null],
      ['/human-evaluations/two', 'j2'],
      ['/human-evaluations/one', 'j1'],
    ]);
    const one = (await request(app).get(room('/requests?session=j1')).expect(200)).body.requests;
    expect(one.map((entry: { path: string }) => entry.path)).toEqual(['/human-evaluations/one']);
  });
});

describe('property: any body and name at /__evalkit/sessions/NAME/scenario', () => {
  it('is put in force for that session alone, or refused with a 4xx naming why, nothing else changed', async () => {
    const { config, core } = coreWith();
    const room = controlRoom({ core, scenarios: config.scenarios, sessions: config.sessions, log: () => {} });
    const call = async (method: string, name: string, body?: unknown) => {
      const answer = await room.serve({
        method,
        url: `/__evalkit/sessions/${encodeURIComponent(name)}/scenario`,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: new TextEncoder().encode(JSON.stringify(body)) }),
      });
      return {
        status: answer.status,
        body: JSON.parse(new TextDecoder().decode(answer.body)) as Record<string, unknown>,
      };
    };
    await call('PUT', 'other', { scenario: { code: 404 } });
    const server = config.scenarios.current.toData();
    const entry = fc.dictionary(
      fc.oneof(fc.constantFrom('code', 'state', 'seed', 'latency', 'progress', 'stat'), fc.string({ maxLength: 8 })),
      fc.oneof(
        fc.constantFrom(401, 'failed', 'x', '10-20', 500),
        fc.string({ maxLength: 20 }),
        fc.integer(),
        fc.constant(null),
      ),
      { maxKeys: 3 },
    );
    const body = fc.oneof(
      fc.record({ scenario: entry }, { requiredKeys: [] }),
      fc.record({ operations: fc.dictionary(fc.constantFrom('createEvaluations', 'nope'), entry, { maxKeys: 2 }) }),
      fc.record({ humanEvaluations: fc.dictionary(fc.string({ maxLength: 10 }), entry, { maxKeys: 2 }) }),
      fc.jsonValue({ maxDepth: 3 }),
    );
    const name = fc.oneof(fc.constantFrom('w1', 'w.2', 'a-b_c~d'), fc.string({ maxLength: 70 }));
    await fc.assert(
      fc.asyncProperty(name, fc.constantFrom('PUT', 'PATCH'), body, async (session, method, sent) => {
        const before = (await call('GET', session)).body;
        const answer = await call(method, session, sent);
        expect([200, 400, 404, 422]).toContain(answer.status);
        if (answer.status === 200) expect((await call('GET', session)).body).toEqual(answer.body);
        else {
          expect(typeof answer.body.detail).toBe('string');
          expect(String(answer.body.detail).length).toBeLessThan(2048);
          if (answer.status !== 400 && answer.status !== 404) expect((await call('GET', session)).body).toEqual(before);
        }
        expect((await call('GET', 'other')).body.scenario).toEqual({ code: 404 });
        expect(config.scenarios.current.toData()).toEqual(server);
        if (answer.status === 200) await call('DELETE', session);
      }),
      runs(150),
    );
  });

  it('property: any ?session= lists only that session, whatever it holds, and never fails', async () => {
    const { config, core } = coreWith();
    const room = controlRoom({ core, scenarios: config.scenarios, sessions: config.sessions, log: () => {} });
    for (const name of ['a', 'b', 'a'])
      await core.handle({ method: 'GET', url: `/__sessions/${name}/human-evaluations/x`, headers: {} });
    await core.handle({ method: 'GET', url: '/human-evaluations/x', headers: {} });
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constantFrom('a', 'b', 'c', ''), fc.string({ maxLength: 100 })), async (name) => {
        const answer = await room.serve({
          method: 'GET',
          url: `/__evalkit/requests?session=${encodeURIComponent(name)}`,
          headers: {},
        });
        expect(answer.status).toBe(200);
        const listed = (JSON.parse(new TextDecoder().decode(answer.body)) as { requests: Array<{ session: string }> })
          .requests;
        expect(listed.map((entry) => entry.session)).toEqual(name === 'a' ? ['a', 'a'] : name === 'b' ? ['b'] : []);
      }),
      runs(100),
    );
  });
});
