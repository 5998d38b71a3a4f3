import { afterEach, describe, expect, it } from 'vitest';
import { createMockCore, MockSetupError, type MockAnswer, type MockCore } from '../../mock/index.js';
import { runCli, startCli, type RunningCli } from '../helpers/cli.js';
import { createRequest } from './helpers.js';

const text = (answer: MockAnswer) => new TextDecoder().decode(answer.body);
type Dated = { id: string; created_at: string; updated_at: string };

function create(core: MockCore, prefer?: string): Promise<MockAnswer> {
  const body = new TextEncoder().encode(JSON.stringify(createRequest()));
  const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(body.length) };
  if (prefer) headers.prefer = prefer;
  return Promise.resolve(core.handle({ method: 'POST', url: '/evaluations', headers, body }));
}

/** An answer with its moments blotted out: date-times, and ids' time (an ObjectId's first 8 hex, a UUIDv7's 12). */
function timeless(body: string): string {
  return body
    .replace(/"\d{4}-\d\d-\d\dT[^"]+"/g, '"<moment>"')
    .replace(/"[0-9a-f]{8}([0-9a-f]{16})"/g, '"<time>$1"')
    .replace(/"[0-9a-f]{8}-[0-9a-f]{4}-7/g, '"<time>-7');
}

const micros = (date: string) => Date.parse(date) * 1000 + Number(/\.\d{3}(\d{3})/.exec(date)?.[1] ?? 0);

describe('a just-created Evaluation looks just created', () => {
  it('is stamped at the request moment, one moment per call, updated a few microseconds later', async () => {
    const core = createMockCore({ seed: 'moment' });
    for (const state of ['initialized', 'started', 'finished']) {
      const before = Date.now();
      const answer = await create(core, `state=${state}`);
      const after = Date.now();
      const evaluations = JSON.parse(text(answer)) as Dated[];
      expect(evaluations).toHaveLength(2);
      const [first] = evaluations as [Dated];
      expect(Date.parse(first.created_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(first.created_at)).toBeLessThanOrEqual(after + 1000);
      for (const evaluation of evaluations) {
        expect(evaluation.created_at).toBe(first.created_at);
        const since = micros(evaluation.updated_at) - micros(evaluation.created_at);
        expect(since).toBeGreaterThanOrEqual(0);
        expect(since).toBeLessThan(100);
      }
    }
  });

  it('answers two identical requests alike but for their moments; at one pinned moment, byte for byte', async () => {
    // A clock that moves on by a second and a half between the two requests.
    let ms = Date.parse('2026-07-01T09:00:00Z');
    const core = createMockCore({ seed: 'moment', now: () => new Date((ms += 1500)) });
    const first = text(await create(core));
    const second = text(await create(core));
    expect(second).not.toBe(first);
    expect(timeless(second)).toBe(timeless(first));
    // Pinned at the moment the first was answered at, the same request gets the first's bytes back.
    const [{ created_at }] = JSON.parse(first) as [Dated];
    expect(text(await create(core, `now=${created_at}`))).toBe(first);
  });

  it('pins the clock with the now option (an instant or a function) and the Prefer key alike', async () => {
    const instant = '2026-03-04T05:06:07.080910Z';
    const pinned = createMockCore({ seed: 'moment', now: instant });
    const byFunction = createMockCore({ seed: 'moment', now: () => new Date('2026-03-04T05:06:07.080Z') });
    const answer = text(await create(pinned));
    expect(text(await create(pinned))).toBe(answer);
    expect((JSON.parse(answer) as Dated[])[0]?.created_at).toBe(instant);
    expect((JSON.parse(text(await create(byFunction))) as Dated[])[0]?.created_at).toBe('2026-03-04T05:06:07.080000Z');
    expect(text(await create(createMockCore({ seed: 'moment' }), `now=${instant}`))).toBe(answer);
  });

  it('refuses a now that is not an RFC 3339 date-time, naming the key', async () => {
    expect(() => createMockCore({ now: 'yesterday' })).toThrow(MockSetupError);
    expect(() => createMockCore({ now: 'yesterday' })).toThrow(/'now' accepts an RFC 3339 date-time/);
    const answer = await create(createMockCore(), 'now=2026-01-01 10:00:00');
    expect(answer.status).toBe(400);
    expect(text(answer)).toMatch(/now/);
  });
});

describe("a HumanEvaluation's dates are never later than the request moment", () => {
  it('with the clock and with a pinned moment inside the generators’ window', () => {
    const now = '2025-02-01T00:00:00Z';
    for (const [core, limit] of [
      [createMockCore({ seed: 'past' }), Date.now()],
      [createMockCore({ seed: 'past', now }), Date.parse(now)],
    ] as const) {
      for (let index = 0; index < 300; index++) {
        const answer = core.handle({ method: 'GET', url: `/human-evaluations/h${index}`, headers: {} }) as MockAnswer;
        const record = JSON.parse(text(answer)) as Dated;
        expect(Date.parse(record.updated_at)).toBeLessThanOrEqual(limit);
        expect(Date.parse(record.created_at)).toBeLessThanOrEqual(Date.parse(record.updated_at));
      }
    }
  });
});

describe('evalkit mock --now', () => {
  const running: RunningCli[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((mock) => (mock.kill(), mock.exited)));
  });

  it('answers created Evaluations stamped at that instant, and refuses one that is not RFC 3339', async () => {
    const mock = startCli(['mock', '--port', '0', '--quiet', '--now', '2026-05-06T07:08:09Z']);
    running.push(mock);
    const [, url] = (await mock.waitFor(/listening on (http:\/\/\S+)\n/, 15_000)) as unknown as [string, string];
    const res = await fetch(`${url}/evaluations`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(createRequest()),
    });
    expect(((await res.json()) as Dated[])[0]?.created_at).toBe('2026-05-06T07:08:09.000000Z');
    const bad = await runCli(['mock', '--now', 'tomorrow']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--now: scenario key 'now' accepts an RFC 3339 date-time/);
  });
});
