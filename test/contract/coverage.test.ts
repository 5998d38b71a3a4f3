import { afterEach, describe, expect, it } from 'vitest';
import { operation, operationIds } from '../../api/operations.js';
import { documentedFields } from '../../contract/judge/schema-walk.js';
import {
  githubAnnotations,
  htmlReport,
  jsonReport,
  junitReport,
  runContract,
  terminalReport,
} from '../../contract/index.js';
import { startMockServer } from '../../mock/index.js';
import { githubStepSummary } from '../../contract/report/github.js';
import { runCli } from '../helpers/cli.js';
import { json, startConformingServer, type Answer, type RunningServer } from './conforming-server.js';

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Drops Evaluation.testset_name (optional) from every created Evaluation: a deployment that never sends it. */
function withoutTestsetName(answer: Answer): Answer {
  if (answer.status !== 200 || !answer.body.startsWith('[')) return answer;
  const evaluations = JSON.parse(answer.body) as Array<Record<string, unknown>>;
  return json(
    200,
    evaluations.map(({ testset_name: _dropped, ...rest }) => rest),
  );
}

/** A conforming deployment whose Evaluations are finished (so they carry results), with or without the field. */
async function deployment(dropField: boolean): Promise<RunningServer> {
  const server = await startConformingServer({
    evaluationState: 'EVALUATION_FINISHED',
    ...(dropField
      ? { rewrite: (answer, context) => (context.route === 'create' ? withoutTestsetName(answer) : answer) }
      : {}),
  });
  servers.push(server);
  return server;
}

/** The documented response fields of the operations' answers, read off the schemas: what coverage counts. */
const documented = [...new Set(operationIds.map((id) => operation(id).response.resource))].flatMap(
  documentedFields,
).length;
const operationsSeen = `operations ${operationIds.length}/${operationIds.length}`;

describe('coverage in every report', () => {
  it('lists an optional field a deployment never sends as unseen, in terminal, JSON and HTML', async () => {
    const keeps = await runContract({ baseUrl: (await deployment(false)).url });
    const field = (report: typeof keeps) =>
      report.coverage.responseFields.fields.find((entry) => entry.field === 'Evaluation.testset_name');
    expect(field(keeps)?.carried).toBeGreaterThan(0);
    expect(keeps.coverage.responseFields.unseen).not.toContain('Evaluation.testset_name');

    const report = await runContract({ baseUrl: (await deployment(true)).url });
    expect(field(report)).toEqual({ field: 'Evaluation.testset_name', carried: 0, null: 0 });
    const { responseFields } = report.coverage;
    expect(responseFields.unseen).toContain('Evaluation.testset_name');
    expect(responseFields.seen).toBe(keeps.coverage.responseFields.seen - 1);
    expect(responseFields.documented).toBe(documented);

    const terminal = terminalReport(report, { colour: false });
    // A clean PASS: the coverage is information, introduced as such, with nothing worded as missing or wrong.
    expect(report.verdict).toBe('PASS');
    expect(terminal).toContain(
      `coverage, for information (what this run exercised; --min-coverage makes it a gate):\n  ${operationsSeen}`,
    );
    expect(terminal).toMatch(/^ {2}operations \d+\/\d+, statuses 200 ×\d+ .*422 ×\d+$/m);
    expect(terminal).toMatch(
      new RegExp(
        `^  response fields ${responseFields.seen}/${documented} seen ` +
          `\\(not in this run's answers: Evaluation\\.testset_name, `,
        'm',
      ),
    );
    expect(terminal).toMatch(
      /^ {2}states \d+\/9 seen \(not in this run's answers: Evaluation\.status\.value=EVALUATION_INITIALIZED/m,
    );
    expect(terminal).toMatch(
      /^ {2}request fields varied 0\/7 over 1 valid create requests \(property cases vary them/m,
    );
    expect(terminal).not.toMatch(/never seen|below --min-coverage/);
    // Folded away in the HTML report and the GitHub step summary alike.
    expect(htmlReport(report)).toMatch(/<details class="rest" id="coverage"><summary>Coverage, for information/);
    expect(githubStepSummary(report)).toContain('_coverage, for information (what this run exercised; ');

    const document = JSON.parse(jsonReport(report)) as { coverage: typeof report.coverage };
    expect(document.coverage.responseFields.unseen).toEqual(responseFields.unseen);
    expect(document.coverage.operations.byOperation.map((entry) => entry.operation)).toEqual(['fetch', 'create']);
    expect(document.coverage.shortfalls).toEqual([]);

    const html = htmlReport(report);
    expect(html).toMatch(
      /<details class="rest" id="coverage"><summary>Coverage, for information \(.*\): operations \d+\/\d+, response/,
    );
    // A zero is shown as one, not as a warning: nothing failed.
    expect(html).toContain('<td><code>Evaluation.testset_name</code></td><td><span class="badge b-skipped">0</span>');
  });

  it('counts statuses per operation, records per resource, and the states seen', async () => {
    const report = await runContract({ baseUrl: (await deployment(false)).url });
    const { operations, responseFields, states } = report.coverage;
    const statuses = Object.fromEntries(
      operations.byOperation.map((entry) => [entry.operation, entry.statuses.map((status) => status.status)]),
    );
    expect(statuses.fetch).toEqual([200, 404]);
    expect(statuses.create).toEqual(expect.arrayContaining([200, 422]));
    const answered = operations.byOperation.flatMap((entry) => entry.statuses).reduce((sum, s) => sum + s.count, 0);
    expect(answered).toBe(report.requests);
    // The given id, and once more asking for a state by Prefer: a deployment that ignores it gets nothing more.
    expect(responseFields.records.find((entry) => entry.resource === 'HumanEvaluation')?.count).toBe(2);
    const evaluationStates = states.fields.find((entry) => entry.field === 'Evaluation.status.value');
    expect(evaluationStates?.values.filter((value) => value.count > 0).map((value) => value.value)).toEqual([
      'EVALUATION_FINISHED',
    ]);
  });

  it('against evalkit mock, the default run sees every documented response field and every state', async () => {
    const mock = await startMockServer({ port: 0 });
    servers.push(mock);
    const report = await runContract({ baseUrl: mock.url });
    expect(report.coverage.responseFields.unseen).toEqual([]);
    expect(report.coverage.responseFields.seen).toBe(documented);
    expect(report.coverage.states.unseen).toEqual([]);
    expect(report.summary.failed - report.summary.warnings).toBe(0);
  });

  it('counts the request fields a run varied: none with one body, every field with property cases', async () => {
    const { url } = await deployment(false);
    const one = await runContract({ baseUrl: url });
    expect(one.coverage.requestFields.varied).toEqual([]);
    const many = await runContract({ baseUrl: url, examples: 20 });
    expect(many.coverage.requestFields.requests).toBeGreaterThan(5);
    expect(many.coverage.requestFields.varied).toEqual(expect.arrayContaining(['app_id', 'variant_ids']));
  });
});

describe('--min-coverage', () => {
  it('fails the run with the reason on the verdict line, in JUnit too, and passes a minimum that is met', async () => {
    const { url } = await deployment(true);
    const under = await runCli(['contract', '--base-url', url, '--min-coverage', 'fields=100']);
    expect(under.code).toBe(1);
    expect(under.stdout).toMatch(/^FAIL \(coverage: response fields \d+\/\d+ \([\d.]+%\) under the minimum 100%\): /m);
    expect(under.stdout).toMatch(/^ {2}below --min-coverage: response fields/m);
    expect(under.stdout).toMatch(/^coverage, below --min-coverage:$/m);
    const met = await runCli(['contract', '--base-url', url, '--min-coverage', 'fields=10,operations=100']);
    expect(met.code).toBe(0);

    const report = await runContract({ baseUrl: url, minCoverage: { states: 50 } });
    expect(report.verdict).toBe('FAIL');
    expect(report.coverage.minimum).toEqual({ states: 50 });
    expect(junitReport(report)).toContain(
      '<testcase name="run.coverage" classname="run"><failure type="error" ' +
        'message="coverage below --min-coverage: states 2/9 (22.2%) under the minimum 50%',
    );
    expect(githubAnnotations(report)).toContain(
      // Workflow commands escape a percent sign as %25.
      '::error title=run.coverage::coverage below --min-coverage: states 2/9 (22.2%25) under the minimum 50%25',
    );
  });

  it('refuses a minimum it cannot read in one line, exit 2', async () => {
    for (const bad of ['fields', 'fields=101', 'rows=5', 'fields=ninety', 'fields=90,']) {
      const args = ['contract', '--base-url', 'http://127.0.0.1:9', '--min-coverage', bad];
      const { code, stderr } = await runCli(args);
      expect(code).toBe(2);
      expect(stderr.trim().split('\n')).toEqual([
        'evalkit contract: --min-coverage must be KIND=PERCENT[,KIND=PERCENT], ' +
          `KIND one of operations, fields, states, with PERCENT from 0 to 100; got '${bad}'`,
      ]);
    }
  });
});
