import { describe, expect, it } from 'vitest';
import { runContract } from '../../contract/index.js';
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
    const report = await runContract({ baseUrl: server.url, createBody: bankCreateBody });
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
