import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConformingServer, type RunningServer } from './conforming-server.js';
import { exitCode, runContract, type Report } from '../../contract/index.js';

describe('runContract against the conforming reference server', () => {
  let server: RunningServer;
  let report: Report;

  beforeAll(async () => {
    server = await startConformingServer();
    report = await runContract({ baseUrl: server.url, timeoutMs: 2000 });
  });
  afterAll(() => server.close());

  it('fails no check and exits 0', () => {
    const failed = report.checks.filter((check) => check.outcome === 'failed');
    expect(failed, JSON.stringify(failed, null, 2)).toEqual([]);
    expect(exitCode(report, true)).toBe(0);
  });

  it('evaluates every check but the ones that need aggregated results or properties', () => {
    const skipped = report.checks.filter((check) => check.outcome === 'skipped').map((check) => check.id);
    expect(skipped.sort()).toEqual(
      [
        'create.body.evaluator-config.known',
        'create.body.evaluator-configs',
        'create.properties.invalid.5xx',
        'create.properties.invalid.rejected',
        'create.properties.valid',
      ].sort(),
    );
  });

  it('counts match the checks', () => {
    const { passed, failed, skipped } = report.summary;
    expect(passed + failed + skipped).toBe(report.checks.length);
  });
});
