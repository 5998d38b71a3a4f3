import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createMockApp } from '../../mock/index.js';
import { createRequest, secret } from './helpers.js';

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
