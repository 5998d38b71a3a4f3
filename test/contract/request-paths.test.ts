import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchPath, PathParameterError } from '../../api/match.js';
import { Evidence } from '../../contract/judge/evidence.js';
import { runs } from '../properties/runs.js';
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

/** Ids as an attacker or a recording gives them: dots, encoded dots in any case, separators, backslashes, anything. */
const hostileId = fc.oneof(
  fc.constantFrom('.', '..', '%2e', '%2E%2e', '.%2e', '%2e.', '..%2f', '\\..', '..\\', '\\', '/', '?', '#', '%', '%00'),
  fc
    .array(fc.constantFrom('.', '%', '2', 'e', 'E', '/', '\\', '?', '#', 'a', ' '), { minLength: 1, maxLength: 6 })
    .map((parts) => parts.join('')),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }),
);

/** A base URL with a path prefix, as --base-url takes one (`/api`, `/api/v1/`). */
const basePath = fc
  .array(fc.stringMatching(/^[A-Za-z0-9_~-]{1,8}$/), { maxLength: 3 })
  .chain((segments) => fc.constantFrom(segments.join('/'), `${segments.join('/')}/`))
  .map((path) => (path === '' || path === '/' ? '' : `/${path}`));

describe('property: an id is data for one path segment, never a path', () => {
  it("any id under any base path: the operation's path with the id in its one segment, or . and .. refused", () => {
    fc.assert(
      fc.property(hostileId, basePath, (id, base) => {
        const evidence = new Evidence(new URL(`http://127.0.0.1:9${base}`), [], (text) => text);
        let request;
        try {
          request = fetchRequest(id);
        } catch (error) {
          // Only the two dot segments, whose every encoding a URL reads as a step along the path.
          expect(error).toBeInstanceOf(PathParameterError);
          expect(['.', '..']).toContain(id);
          expect((error as Error).message).toContain(`'${id}'`);
          return;
        }
        const url = evidence.url(request);
        const prefix = `${base.replace(/\/+$/, '')}/human-evaluations/`;
        expect(url.pathname.startsWith(prefix), url.pathname).toBe(true);
        const segment = url.pathname.slice(prefix.length);
        expect(segment).not.toContain('/');
        expect(decodeURIComponent(segment)).toBe(id);
        // Parsed again, as the HTTP client and a server read it: the same path.
        expect(new URL(url.href).pathname).toBe(url.pathname);
      }),
      runs(500),
    );
  });
});
