import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { matchPath, PathParameterError, pathFor, pathOf, relativeToBase } from '../../api/match.js';
import { operationIds, operationLabel, operationTable, recordFolder } from '../../api/operations.js';
import { evalkitVersion } from '../../api/version.js';
import { openApiDocument } from '../../api/openapi.js';
import { matchCases } from './match-cases.js';

// Read, not imported: an import would make tsc copy package.json into dist/.
const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe('the API surface', () => {
  it.each(matchCases)('reads $path as the table says', ({ path, expected }) => {
    const match = matchPath(path);
    if (expected === 'unknown') expect(match).toEqual({ kind: 'unknown' });
    else if ('undecodable' in expected) expect(match).toEqual({ kind: 'undecodable', operation: expected.undecodable });
    else expect(match).toEqual({ kind: 'operation', ...expected });
  });

  it('builds paths the matcher reads back, whatever the id holds', () => {
    for (const id of ['6637c0a25368ef07b03a64cd', 'a b/c?d#e', 'été', '...', '%2e%2e', '%41']) {
      const path = pathFor('fetchHumanEvaluation', { evaluation_id: id });
      expect(matchPath(path)).toEqual({
        kind: 'operation',
        operation: 'fetchHumanEvaluation',
        params: { evaluation_id: id },
      });
    }
    expect(pathFor('createEvaluations')).toBe('/evaluations');
    expect(() => pathFor('fetchHumanEvaluation')).toThrow(/evaluation_id/);
    // A URL reads these as steps along the path however they are encoded: no request carries them.
    for (const id of ['.', '..'])
      expect(() => pathFor('fetchHumanEvaluation', { evaluation_id: id })).toThrow(PathParameterError);
  });

  it('matches a base path by whole segments only', () => {
    expect(relativeToBase('/api/evaluations', '/api')).toBe('/evaluations');
    expect(relativeToBase('/api', '/api')).toBe('/');
    expect(relativeToBase('/apix/evaluations', '/api')).toBeUndefined();
    expect(relativeToBase('/evaluations', '')).toBe('/evaluations');
    expect(pathOf('http://host:1/api/evaluations?x=1')).toBe('/api/evaluations');
    expect(pathOf('/evaluations?x=/y')).toBe('/evaluations');
    expect(pathOf('http://host')).toBe('/');
  });

  it('is the OpenAPI document: each operation once, with its method, path and id', () => {
    const paths = openApiDocument().paths as Record<string, Record<string, { operationId: string }>>;
    expect(Object.keys(paths)).toEqual(operationIds.map((id) => operationTable[id].path));
    for (const id of operationIds) {
      const { method, path } = operationTable[id];
      expect(paths[path]?.[method.toLowerCase()]?.operationId).toBe(id);
      expect(operationLabel(id)).toBe(`${method} ${path}`);
    }
    expect(recordFolder).toBe('human-evaluations');
  });

  it('carries the version package.json declares', () => {
    expect(evalkitVersion).toBe(packageJson.version);
  });
});
