import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { evaluationStates, humanEvaluationStates } from '../../generators/vocabulary.js';
import { createMockApp } from '../../mock/index.js';
import { apartFrom, createRequest, evaluationStateFields, expectEvaluations, expectValid } from './helpers.js';

// One moment for every request, so answers differ only by what the state decides.
const app = createMockApp({ now: '2026-01-05T10:00:00Z' });

describe('Prefer: state=... shows the same record in another state', () => {
  it('GET /human-evaluations/{id}: the same record in every state, bar status and updated_at', async () => {
    for (const id of ['6637c0a25368ef07b03a64cd', 'toggle-me', '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b']) {
      const plain = (await request(app).get(`/human-evaluations/${id}`).expect(200)).body as Record<string, unknown>;
      for (const state of evaluationStates) {
        const res = await request(app).get(`/human-evaluations/${id}`).set('Prefer', `state=${state}`).expect(200);
        expect(res.headers['preference-applied']).toBe(`state=${state}`);
        expectValid('HumanEvaluation', res.body);
        expect(res.body.status).toBe(state);
        expect(apartFrom(res.body, ['status', 'updated_at'])).toEqual(apartFrom(plain, ['status', 'updated_at']));
        if (state === 'EVALUATION_INITIALIZED') expect(res.body.updated_at).toBe(res.body.created_at);
      }
      const later = await Promise.all(
        humanEvaluationStates
          .slice(1)
          .map(
            async (state) =>
              (await request(app).get(`/human-evaluations/${id}`).set('Prefer', `state=${state}`)).body.updated_at,
          ),
      );
      expect(new Set(later).size).toBe(1);
    }
  });

  it('POST /evaluations: the same Evaluations in every state, bar what the state decides', async () => {
    const post = (prefer: string) =>
      request(app)
        .post('/evaluations')
        .set('Content-Type', 'application/json')
        .set('Prefer', prefer)
        .send(createRequest());
    const answers = [];
    for (const state of evaluationStates) {
      const res = await post(`state=${state}, profile=full`).expect(200);
      answers.push(
        expectEvaluations(res.body).map((evaluation) => {
          expect(evaluation.status.value).toBe(state);
          return apartFrom(evaluation, evaluationStateFields);
        }),
      );
    }
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    const finished = expectEvaluations((await post('state=EVALUATION_FINISHED, profile=full').expect(200)).body);
    for (const evaluation of finished) expect(evaluation.aggregated_results).toHaveLength(3);
  });
});
