import fc from 'fast-check';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createMockApp } from '../../mock/index.js';
import { createRequest, secret } from './helpers.js';
import { scenarioKeys } from '../../mock/core/scenarios.js';
import { limitFor, runs } from '../properties/runs.js';

describe('request log', () => {
  it('writes one line per request: method, path, status, milliseconds; no query, body or secret', async () => {
    const lines: string[] = [];
    const app = createMockApp({ log: (line) => lines.push(line) });
    await request(app).get('/human-evaluations/abc?token=query-secret').expect(200);
    await request(app).post('/evaluations').send(createRequest()).expect(200);
    await request(app)
      .post('/evaluations')
      .send(createRequest({ app_id: 1 }))
      .expect(422);
    await request(app)
      .post('/evaluations')
      .set('Content-Type', 'application/json')
      .send(`{"k": ${secret}}`)
      .expect(422);
    await request(app).delete('/evaluations').expect(405);
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(/^GET \/human-evaluations\/abc 200 \d+\.\dms$/);
    expect(lines[1]).toMatch(/^POST \/evaluations 200 \d+\.\dms$/);
    expect(lines[2]).toMatch(/^POST \/evaluations 422 /);
    expect(lines[3]).toMatch(/^POST \/evaluations 422 \d+\.\dms \(1 problem\)$/);
    expect(lines[4]).toMatch(/^DELETE \/evaluations 405 /);
    expect(lines.join('\n')).not.toMatch(/query-secret|sk-test|OPENAI/);
  });

  it('says why an answer is not a plain 200: the scenario that asked, the 422 problems, an error detail', async () => {
    const lines: string[] = [];
    const app = createMockApp({
      log: (line) => lines.push(line),
      scenarios: { humanEvaluations: { gone: { code: 500 } } },
    });
    await request(app).get('/human-evaluations/abc').set('Prefer', 'code=503').expect(503);
    await request(app).get('/human-evaluations/gone').expect(500);
    await request(app)
      .post('/evaluations')
      .send(createRequest({ app_id: 1, testset_id: 2, correct_answer_column: 3 }))
      .expect(422);
    await request(app)
      .post('/evaluations')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'compress')
      .send('{}')
      .expect(415);
    await request(app).get('/human-evaluations/abc').set('Prefer', 'state=failed').expect(200);
    expect(lines[0]).toMatch(/^GET \/human-evaluations\/abc 503 \d+\.\dms \(Prefer: code=503\)$/);
    expect(lines[1]).toMatch(/^GET \/human-evaluations\/gone 500 \d+\.\dms \(scenario: code=500\)$/);
    expect(lines[2]).toMatch(/^POST \/evaluations 422 \d+\.\dms \(3 problems\)$/);
    expect(lines[3]).toMatch(/^POST \/evaluations 415 \d+\.\dms \(Content-Encoding of the request body: .*\)$/);
    expect(lines[4]).toMatch(/^GET \/human-evaluations\/abc 200 \d+\.\dms$/);
  });

  it("keeps a refusal's did-you-mean however long the list before it", async () => {
    const lines: string[] = [];
    const app = createMockApp({ log: (line) => lines.push(line) });
    await request(app).get('/human-evaluations/abc').set('Prefer', 'progres=2000').expect(400);
    await request(app)
      .put('/__evalkit/scenario')
      .send({ scenario: { state: 'finished_with_erors' } })
      .expect(422);
    expect(lines[0]).toMatch(/ 400 \d+\.\dms \(unknown scenario key 'progres'; did you mean progress\? /);
    expect(lines[1]).toMatch(/ 422 \d+\.\dms \(.*did you mean finished_with_errors\?/);
    expect(lines.every((line) => line.length < 300)).toBe(true);
  });

  it('marks a reason cut short, so a list cut at its start is not read as all there is', async () => {
    const lines: string[] = [];
    const app = createMockApp({ log: (line) => lines.push(line) });
    const res = await request(app).get('/human-evaluations/abc').set('Prefer', 'state=done').expect(400);
    const detail = (res.body as { detail: string }).detail;
    expect(lines[0]).toContain(`(${detail.slice(0, 100)}…)`);
  });

  const logRuns = 150;
  it(
    `property: any Prefer typed gets a bounded line, the start of the answer's reason and its suggestion (${logRuns} ` +
      'runs)',
    async () => {
      const lines: string[] = [];
      const app = createMockApp({ log: (line) => lines.push(line) });
      // Header text a client can send: printable ASCII; the value also long, and near every listed value.
      const printable = fc.string({
        unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
      });
      const typed = fc.oneof(
        fc.constantFrom('failed', 'EVALUATION_FINISHED_WITH_ERRORS', '404', 'truncate', 'minimal', '0.18', 'false'),
        printable,
      );
      const slip = fc.tuple(typed, fc.nat(), fc.constantFrom('', 'x', 'e')).map(([word, at, letter]) => {
        const i = at % (word.length + 1);
        return word.slice(0, i) + letter + word.slice(i + 1);
      });
      const value = fc.oneof(
        slip,
        printable.map((text) => text.repeat(200)),
      );
      const name = fc.oneof(fc.constantFrom(...scenarioKeys), slip);
      await fc.assert(
        fc.asyncProperty(name, value, async (key, text) => {
          lines.length = 0;
          const res = await request(app).get('/human-evaluations/abc').set('Prefer', `${key}=${text}`);
          const detail = (res.body as { detail?: unknown }).detail;
          const line = lines[0] ?? '';
          expect(line.length).toBeLessThan(400);
          if (res.status !== 400 || typeof detail !== 'string') return;
          const reason = /^GET \/human-evaluations\/abc 400 \d+\.\dms \(([^]*)\)$/.exec(line)?.[1] ?? '';
          const start = reason.split('…')[0] ?? '';
          expect(detail.startsWith(start), `${reason} / ${detail}`).toBe(true);
          const meant = /did you mean [^?]+\?/.exec(detail)?.[0];
          if (meant !== undefined) expect(reason).toContain(meant);
        }),
        runs(logRuns),
      );
    },
    limitFor(logRuns, 20),
  );

  it('cuts very long paths', async () => {
    const lines: string[] = [];
    await request(createMockApp({ log: (line) => lines.push(line) }))
      .get(`/human-evaluations/${'x'.repeat(900)}`)
      .expect(200);
    expect(lines[0]?.length).toBeLessThan(240);
  });

  it('is off without a log function', async () => {
    const app = createMockApp();
    const written: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => written.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      await request(app).get('/human-evaluations/abc').expect(200);
    } finally {
      process.stderr.write = original;
    }
    expect(written).toEqual([]);
  });
});
