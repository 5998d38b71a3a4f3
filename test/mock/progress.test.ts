import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluationStates } from '../../generators/vocabulary.js';
import { followedRecords, Progress } from '../../mock/core/progress.js';
import { runs } from '../properties/runs.js';
import { createMockCore, startMockServer, type MockAnswer, type MockCore } from '../../mock/index.js';
import { startMockCli } from './control-helpers.js';
import { expectValid } from './helpers.js';

type Record = { id: string; status: string; created_at: string; updated_at: string };
const text = (answer: MockAnswer) => new TextDecoder().decode(answer.body);

/** A mock whose clock the test moves, as a Vitest test moves its pinned clock. */
function movableMock(progress: number, state?: string): { core: MockCore; at(iso: string): void } {
  let now = new Date('2026-03-01T10:00:00Z');
  const core = createMockCore({ seed: 'poll', now: () => now, progress, ...(state && { scenario: { state } }) });
  return { core, at: (iso) => (now = new Date(iso)) };
}

async function poll(core: MockCore, id: string): Promise<{ record: Record; body: string; answer: MockAnswer }> {
  const answer = await core.handle({ method: 'GET', url: `/human-evaluations/${id}`, headers: {} });
  expect(answer.status).toBe(200);
  const record = JSON.parse(text(answer)) as Record;
  expectValid('HumanEvaluation', record);
  return { record, body: text(answer), answer };
}

describe('progress=MS: a human evaluation moves through its lifecycle as a poller sees it', () => {
  it('is INITIALIZED, then STARTED after MS, then final after 2·MS; updated_at moves at each change', async () => {
    const { core, at } = movableMock(5000);
    const first = await poll(core, 'run-1');
    expect(first.record.status).toBe('EVALUATION_INITIALIZED');
    expect(first.record.created_at).toBe(first.record.updated_at);
    expect(first.record.created_at).toBe('2026-03-01T10:00:00.000000Z');
    at('2026-03-01T10:00:04.999Z');
    expect((await poll(core, 'run-1')).record.status).toBe('EVALUATION_INITIALIZED');
    at('2026-03-01T10:00:05Z');
    const started = await poll(core, 'run-1');
    expect(started.record).toMatchObject({ status: 'EVALUATION_STARTED', updated_at: '2026-03-01T10:00:05.000000Z' });
    expect(started.record.created_at).toBe(first.record.created_at);
    at('2026-03-01T10:00:10Z');
    const finished = await poll(core, 'run-1');
    expect(finished.record).toMatchObject({ status: 'EVALUATION_FINISHED', updated_at: '2026-03-01T10:00:10.000000Z' });
    // Only what the lifecycle decides changes: the same record otherwise.
    const { status: _s, updated_at: _u, ...rest } = finished.record;
    const { status: _s0, updated_at: _u0, ...rest0 } = first.record;
    expect(rest).toEqual(rest0);
    // The journal's note says where it stands.
    expect(finished.answer.notes).toEqual(['progress: EVALUATION_FINISHED since 2026-03-01T10:00:10.000Z (final)']);
    expect(first.answer.notes?.[0]).toMatch(
      /since 2026-03-01T10:00:00.000Z, EVALUATION_STARTED at 2026-03-01T10:00:05/,
    );
  });

  it('ends in the state named by state=, and each id has its own first moment', async () => {
    const { core, at } = movableMock(1000, 'failed');
    await poll(core, 'a');
    at('2026-03-01T10:00:01.5Z');
    expect((await poll(core, 'a')).record.status).toBe('EVALUATION_STARTED');
    expect((await poll(core, 'b')).record.status).toBe('EVALUATION_INITIALIZED');
    at('2026-03-01T10:00:03Z');
    expect((await poll(core, 'a')).record.status).toBe('EVALUATION_FAILED');
    expect((await poll(core, 'b')).record.status).toBe('EVALUATION_STARTED');
  });

  it('gives the same bytes for the same moment under a pinned clock', async () => {
    const pinned = createMockCore({ seed: 'poll', now: '2026-03-01T10:00:00Z', progress: 1000 });
    const once = await poll(pinned, 'same');
    expect((await poll(pinned, 'same')).body).toBe(once.body);
    const prefer = await pinned.handle({
      method: 'GET',
      url: '/human-evaluations/same',
      headers: { prefer: 'now=2026-03-01T10:00:01Z' },
    });
    expect(JSON.parse(text(prefer)).status).toBe('EVALUATION_STARTED');
  });

  it('only moves forward, under any phase length, final state and moments: a state kept keeps its moment', () => {
    // The lifecycle's order: the two moving states, then any final one.
    const rank = (state: string) => Math.max(['EVALUATION_INITIALIZED', 'EVALUATION_STARTED'].indexOf(state), 2);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 86_400_000 }),
        fc.constantFrom(...evaluationStates),
        fc.array(fc.nat({ max: 4 * 86_400_000 }), { minLength: 1, maxLength: 12 }),
        (phaseMs, final, offsets) => {
          const progress = new Progress();
          const t0 = Date.parse('2026-03-01T10:00:00Z') * 1000;
          const moments = [...offsets].sort((a, b) => a - b).map((ms) => t0 + ms * 1000);
          let before: ReturnType<Progress['phaseOf']> | undefined;
          for (const moment of moments) {
            const phase = progress.phaseOf('run', moment, phaseMs, final);
            if (before) {
              expect(rank(phase.state)).toBeGreaterThanOrEqual(rank(before.state));
              // The moment it stands in a state since (its updated_at) moves only with the state.
              if (phase.state === before.state) expect(phase.since).toBe(before.since);
              else expect(phase.since).toBeGreaterThan(before.since);
            }
            expect(phase.since).toBeLessThanOrEqual(moment);
            if (phase.next) expect(phase.next.state).not.toBe(phase.state);
            before = phase;
          }
          // It ends in the state asked for, and stays there.
          const last = progress.phaseOf('run', (moments.at(-1) as number) + 3 * phaseMs * 1000, phaseMs, final);
          expect(last).toMatchObject({ state: final });
          expect(last.next).toBeUndefined();
        },
      ),
      runs(300),
    );
  });

  it(`keeps at most ${followedRecords} first moments: memory stays flat under 100,000 distinct ids`, () => {
    const progress = new Progress();
    const t0 = Date.parse('2026-03-01T10:00:00Z') * 1000;
    for (let index = 0; index < 100_000; index++) progress.phaseOf(`id-${index}`, t0, 1000, 'EVALUATION_FINISHED');
    const later = t0 + 1_500_000;
    // The newest ids are still followed from t0; the oldest were let go and start over when asked for again.
    expect(progress.phaseOf('id-99999', later, 1000, 'EVALUATION_FINISHED').state).toBe('EVALUATION_STARTED');
    expect(progress.phaseOf(`id-${100_000 - followedRecords}`, later, 1000, 'EVALUATION_FINISHED').state).toBe(
      'EVALUATION_STARTED',
    );
    expect(progress.phaseOf('id-0', later, 1000, 'EVALUATION_FINISHED')).toMatchObject({
      state: 'EVALUATION_INITIALIZED',
      createdAt: later,
    });
  });

  it('moves the same way through the node:http server, over real sockets', async () => {
    let now = new Date('2026-03-01T10:00:00Z');
    const server = await startMockServer({ port: 0, now: () => now, progress: 2000 });
    try {
      const status = async () =>
        ((await (await fetch(`${server.url}/human-evaluations/served`)).json()) as Record).status;
      expect(await status()).toBe('EVALUATION_INITIALIZED');
      now = new Date('2026-03-01T10:00:02Z');
      expect(await status()).toBe('EVALUATION_STARTED');
      now = new Date('2026-03-01T10:00:04Z');
      expect(await status()).toBe('EVALUATION_FINISHED');
    } finally {
      await server.close();
    }
  });

  it('is a flag of evalkit mock (its value space: test/mock/knobs.test.ts)', async () => {
    const { mock, api } = await startMockCli(['--progress', '60000', '--quiet']);
    try {
      const res = await fetch(`${api}/human-evaluations/flag`);
      expect(((await res.json()) as Record).status).toBe('EVALUATION_INITIALIZED');
    } finally {
      mock.kill();
      await mock.exited;
    }
  });
});
