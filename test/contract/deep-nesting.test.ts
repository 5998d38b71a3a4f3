import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runContract } from '../../contract/index.js';
import { maxJsonDepth, readJsonBody } from '../../http/json-body.js';
import { runs } from '../properties/runs.js';
import { bankCreateBody } from './bank.js';
import { startConformingServer } from './conforming-server.js';

/** A HumanEvaluation whose `field` holds an array nested `depth` levels deep, written as text. */
async function fetchWith(field: string, depth: number) {
  const server = await startConformingServer({
    send: (res, answer, context) => {
      if (context.route !== 'fetch' || answer.status !== 200) return false;
      const record = JSON.stringify({ ...JSON.parse(answer.body), [field]: 'DEEP' });
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(record.replace('"DEEP"', `${'['.repeat(depth)}${']'.repeat(depth)}`));
      return true;
    },
  });
  try {
    const report = await runContract({ baseUrl: server.url, deployment: { createEvaluations: bankCreateBody } });
    return (id: string) => report.checks.find((check) => check.id === id);
  } finally {
    await server.close();
  }
}

describe('a value nested thousands of levels deep', () => {
  it('where the spec leaves the shape open: a warning naming the position and the clients that refuse it', async () => {
    const check = await fetchWith('evaluation_trace', 5_000);
    expect(check('fetch.body.json')?.outcome).toBe('passed');
    expect(check('fetch.body.schema')?.outcome).toBe('passed');
    const depth = check('fetch.body.depth');
    expect(depth?.severity).toBe('warning');
    expect(depth?.findings).toEqual([
      expect.stringMatching(/^GET \/human-evaluations\/\S+: \/evaluation_trace nests 5,001 levels deep; /),
    ]);
    const finding = depth?.findings[0] ?? '';
    for (const client of ["Python's json module", "Ruby's JSON.parse", ".NET's System.Text.Json"])
      expect(finding).toContain(client);
    expect(finding).not.toContain('Go');
  });

  it("deeper than Go's encoding/json takes: Go is named too", async () => {
    const check = await fetchWith('evaluation_trace', 12_000);
    expect(check('fetch.body.depth')?.findings[0]).toContain("Go's encoding/json (max depth 10,000)");
  });

  it('in a typed position (an id): still an error, the body not checked further', async () => {
    const check = await fetchWith('id', 5_000);
    expect(check('fetch.body.json')?.findings).toEqual([
      expect.stringMatching(/the success body is nested more than 1000 levels deep \(under \/id\/0\/0\/0\/…\)/),
    ]);
    expect(check('fetch.body.depth')?.outcome).toBe('skipped');
  });
});

/**
 * The oracle: how many levels of objects and arrays a value nests, by recursion, not by the walk readJsonBody uses
 * (values here nest some 1,000 levels, well within the stack).
 */
function levelsOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(value).map(levelsOf));
}

describe('readJsonBody, over any JSON text nested around the 1000 levels it walks', () => {
  /** Strings a text-level count could take for levels: brackets, quotes and backslashes, escaped as JSON escapes. */
  const tricky = fc.oneof(
    fc.constantFrom('[', '{', ']}', '"[', '\\', '\\"', '\\\\[', '"]]', '[[[[', '\u2028{'),
    fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ':', ',') }),
  );
  const nested = fc
    .record({
      depth: fc.integer({ min: 990, max: 1010 }),
      inner: fc.jsonValue({ maxDepth: 3 }),
      side: fc.array(tricky, { maxLength: 4 }),
      objects: fc.boolean(),
    })
    .map(({ depth, inner, side, objects }) => {
      let value: unknown = inner;
      for (let level = 0; level < depth; level++) value = objects ? { [side.join('')]: value, s: side } : [side, value];
      return value;
    });

  it('property: a body is cut where, and only where, it nests past 1000 levels, whatever its strings hold', () => {
    fc.assert(
      fc.property(fc.oneof(nested, fc.jsonValue()), (value) => {
        const body = JSON.stringify(value);
        const read = readJsonBody({ body, bodyBytes: Buffer.byteLength(body) });
        if ('problem' in read) throw new Error(read.problem);
        const levels = levelsOf(value);
        expect(read.deep.length > 0, `${levels} levels`).toBe(levels > maxJsonDepth);
        if (levels > maxJsonDepth) expect(Math.max(...read.deep.map((place) => place.levels))).toBe(levels);
      }),
      runs(200),
    );
  });
});
