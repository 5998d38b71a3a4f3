import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCode, runContract, type Report } from '../../contract/index.js';
import { startPrism, writeOpenApiFile, type PrismProcess } from '../helpers/prism.js';

describe('runContract against prism mock serving the OpenAPI document', () => {
  let prism: PrismProcess;
  let report: Report;

  beforeAll(async () => {
    prism = await startPrism(['mock', await writeOpenApiFile('yaml')]);
    report = await runContract({ baseUrl: prism.url, timeoutMs: 5000 });
  }, 120_000);

  afterAll(async () => prism?.stop());

  it('exits 0: no error-level check fails', () => {
    const errors = report.checks.filter((check) => check.outcome === 'failed' && check.severity === 'error');
    expect(errors, JSON.stringify(errors, null, 2)).toEqual([]);
    expect(exitCode(report)).toBe(0);
  });

  it('validates the bodies Prism serves', () => {
    const outcome = (id: string) => report.checks.find((check) => check.id === id)?.outcome;
    expect(outcome('fetch.body.schema')).toBe('passed');
    expect(outcome('create.body.schema')).toBe('passed');
  });
});
