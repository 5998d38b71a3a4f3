import { describe, expect, it } from 'vitest';
import { operationIds, operationTable } from '../../api/operations.js';
import { operationOf } from '../../proxy/operations.js';
import { matchCases } from '../api/match-cases.js';

describe("the proxy's operation matcher", () => {
  it.each(matchCases)('reads $path as the table says', ({ path, expected }) => {
    for (const id of operationIds) {
      const { method, key } = operationTable[id];
      const route = operationOf(method, path);
      if (typeof expected === 'object' && 'operation' in expected && expected.operation === id)
        expect(route).toEqual({ operation: key, params: expected.params });
      else expect(route).toBeUndefined();
    }
  });

  it('judges only the method of the operation a path names', () => {
    expect(operationOf('POST', '/human-evaluations/x')).toBeUndefined();
    expect(operationOf('HEAD', '/human-evaluations/x')).toBeUndefined();
    expect(operationOf('GET', '/evaluations')).toBeUndefined();
  });
});
