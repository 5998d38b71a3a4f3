import { afterEach, describe, expect, it } from 'vitest';
import { exitCode, jsonReport, terminalReport } from '../../contract/index.js';
import { defaultHumanEvaluationId } from '../../contract/run/fetch.js';
import { bankCreateBody } from '../contract/bank.js';
import { json, startConformingServer } from '../contract/conforming-server.js';
import { runCli } from '../helpers/cli.js';
import { answer, closeAll, judged, onClose, postJson, proxyTo } from './helpers.js';

afterEach(closeAll);

/** A conforming deployment whose created Evaluations never carry testset_name (optional). */
async function withoutTestsetName(): Promise<string> {
  const server = await startConformingServer({
    evaluationState: 'EVALUATION_FINISHED',
    rewrite: (given, context) => {
      if (context.route !== 'create' || given.status !== 200) return given;
      const evaluations = JSON.parse(given.body) as Array<Record<string, unknown>>;
      return json(
        200,
        evaluations.map(({ testset_name: _dropped, ...rest }) => rest),
      );
    },
  });
  onClose(() => server.close());
  return server.url;
}

describe("the proxy's report carries the coverage of the traffic it saw", () => {
  it('statuses per operation, the field no answer carried, the states seen; --min-coverage fails it', async () => {
    const target = await withoutTestsetName();
    const watched = await proxyTo(target, { minCoverage: { fields: 90 } });
    const { url } = watched.proxy;
    await answer(`${url}/human-evaluations/${defaultHumanEvaluationId}`);
    await answer(`${url}/human-evaluations/unknown-id`);
    await answer(`${url}/evaluations`, postJson(bankCreateBody));
    await answer(`${url}/evaluations`, postJson({ app_id: 'x' }));
    await judged(watched, 4);
    const report = watched.proxy.report();
    const { operations, responseFields, states, requestFields } = report.coverage;
    expect(operations.byOperation).toEqual([
      {
        operation: 'fetch',
        exchanges: 2,
        statuses: [
          { status: 200, count: 1 },
          { status: 404, count: 1 },
        ],
      },
      {
        operation: 'create',
        exchanges: 2,
        statuses: [
          { status: 200, count: 1 },
          { status: 422, count: 1 },
        ],
      },
    ]);
    expect(responseFields.unseen).toContain('Evaluation.testset_name');
    expect(responseFields.fields.find((field) => field.field === 'HumanEvaluation.testset_name')?.carried).toBe(1);
    expect(states.seen).toBe(2);
    // Only the valid create request is read for its fields.
    expect(requestFields.requests).toBe(1);

    const terminal = terminalReport(report, { colour: false });
    expect(terminal).toMatch(
      /^coverage, below --min-coverage:\n {2}operations \d+\/\d+, statuses 200 ×2 404 ×1 422 ×1$/m,
    );
    expect(terminal).toMatch(
      /^ {2}response fields \d+\/\d+ seen \(not in this run's answers: Evaluation\.testset_name, /m,
    );
    expect(terminal).toMatch(/^ {2}below --min-coverage: response fields \d+\/\d+ \([\d.]+%\) under the minimum 90%$/m);
    expect(report.verdict).toBe('FAIL');
    expect(exitCode(report)).toBe(1);
    const document = JSON.parse(jsonReport(report)) as { coverage: typeof report.coverage };
    expect(document.coverage.operations.exercised).toBe(2);
    expect(document.coverage.minimum).toEqual({ fields: 90 });
  });
});

describe('evalkit proxy --min-coverage', () => {
  it('refuses a minimum it cannot read before listening, in one line, exit 2', async () => {
    const { code, stderr } = await runCli(['proxy', '--target', 'http://127.0.0.1:9', '--min-coverage', 'fields=200']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^evalkit proxy: --min-coverage must be KIND=PERCENT.*got 'fields=200'\n$/);
  });
});
