import { describe, expect, it } from 'vitest';
import { matchPath } from '../../api/match.js';
import { createRequest, fetchRequest } from '../../contract/run/requests.js';
import { idShapes, unknownIdOf } from '../../contract/run/id-shapes.js';
import { defaultHumanEvaluationId } from '../../contract/index.js';

describe("the contract's request builders", () => {
  it('build fetch paths the matcher reads back as the id they were given', () => {
    const ids = [defaultHumanEvaluationId, ...idShapes.map((shape) => unknownIdOf(shape, '1')), 'a b/c?d#e', 'été'];
    for (const id of ids) {
      const request = fetchRequest(id);
      expect(request.method).toBe('GET');
      expect(matchPath(request.path)).toEqual({
        kind: 'operation',
        operation: 'fetchHumanEvaluation',
        params: { evaluation_id: id },
      });
    }
  });

  it('build create paths the matcher reads back as the create operation', () => {
    const request = createRequest('{}', 'text/plain');
    expect(request).toMatchObject({ method: 'POST', body: '{}', contentType: 'text/plain' });
    expect(matchPath(request.path)).toEqual({ kind: 'operation', operation: 'createEvaluations', params: {} });
  });
});
