import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createMockApp } from '../../mock/index.js';
import { expectValid } from './helpers.js';

const app = createMockApp();

describe('GET /human-evaluations/{evaluation_id}', () => {
  it('answers a valid HumanEvaluation whose id is the requested id', async () => {
    for (const id of ['6637c0a25368ef07b03a64cd', '0190b1f2-3c4d-7e5f-8a9b-0c1d2e3f4a5b', 'any-string id']) {
      const res = await request(app)
        .get(`/human-evaluations/${encodeURIComponent(id)}`)
        .expect(200)
        .expect('Content-Type', /application\/json/);
      expectValid('HumanEvaluation', res.body);
      expect(res.body.id).toBe(id);
    }
  });

  it('answers the same body every time for the same id, and different bodies for different ids', async () => {
    const first = await request(app).get('/human-evaluations/abc').expect(200);
    const again = await request(createMockApp()).get('/human-evaluations/abc').expect(200);
    const other = await request(app).get('/human-evaluations/abd').expect(200);
    expect(again.text).toBe(first.text);
    expect(other.body.id).toBe('abd');
    expect({ ...other.body, id: 'abc' }).not.toEqual(first.body);
  });

  it('changes every body with the server seed, and keeps it with the same seed', async () => {
    const one = await request(createMockApp({ seed: 7 }))
      .get('/human-evaluations/abc')
      .expect(200);
    const same = await request(createMockApp({ seed: '7' }))
      .get('/human-evaluations/abc')
      .expect(200);
    const other = await request(createMockApp({ seed: 8 }))
      .get('/human-evaluations/abc')
      .expect(200);
    expect(same.text).toBe(one.text);
    expect(other.text).not.toBe(one.text);
  });

  it('follows the server profile', async () => {
    for (const profile of ['minimal', 'full', 'mixed', 'edge'] as const) {
      const profiled = createMockApp({ profile });
      for (let i = 0; i < 20; i++) {
        const res = await request(profiled).get(`/human-evaluations/id-${i}`).expect(200);
        expectValid('HumanEvaluation', res.body);
      }
    }
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await request(app).get('/human-evaluations/abc').expect(200);
    const head = await request(app).head('/human-evaluations/abc').expect(200);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.text ?? '').toBe('');
  });

  it('serves under a base path, and nowhere else', async () => {
    const based = createMockApp({ basePath: '/api/' });
    const res = await request(based).get('/api/human-evaluations/abc').expect(200);
    expect(res.body.id).toBe('abc');
    const miss = await request(based).get('/human-evaluations/abc').expect(404);
    expect(miss.body.detail).toMatch(/GET \/api\/human-evaluations\/\{evaluation_id\}/);
  });

  it('matches paths case-sensitively, as the real service does', async () => {
    await request(app).get('/Human-Evaluations/abc').expect(404);
  });
});
