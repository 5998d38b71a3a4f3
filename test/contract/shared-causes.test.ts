import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonReport, junitReport, runContract, terminalReport, type Report } from '../../contract/index.js';
import { githubAnnotations, githubStepSummary } from '../../contract/report/github.js';
import { htmlReport } from '../../contract/report/html.js';
import { mutation } from './bank.js';
import { startConformingServer, type RunningServer } from './conforming-server.js';

/** What nginx sends for an upstream that crashed: the same page to every request that crashed it. */
const page =
  '<html>\r\n<head><title>500 Internal Server Error</title></head>\r\n<body>\r\n<center><h1>500 Internal Server ' +
  'Error</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n' +
  '<!-- a padding to disable MSIE and Chrome friendly error page -->\r\n'.repeat(6);

let server: RunningServer;
let report: Report;

beforeAll(async () => {
  server = await startConformingServer({
    rewrite: (answer, context) =>
      context.route === 'create' && answer.status === 422
        ? { status: 500, headers: { 'content-type': 'text/html' }, body: page }
        : answer,
  });
  report = await runContract({ baseUrl: server.url });
});
afterAll(() => server.close());

/** Every report format, by name. */
const formats = (): Record<string, string> => ({
  terminal: terminalReport(report, { colour: false }),
  json: jsonReport(report),
  junit: junitReport(report),
  html: htmlReport(report),
  'github annotations': githubAnnotations(report),
  'github summary': githubStepSummary(report),
});

describe('one finding per cause: every invalid body crashing with the same nginx 500 page', () => {
  it('is one finding: the answer once, the count of requests that got it, and those requests', () => {
    const check = report.checks.find((candidate) => candidate.id === 'create.status.5xx');
    expect(check?.findings).toHaveLength(1);
    const [finding] = check?.findings ?? [];
    expect(finding).toMatch(/^\d+ requests answered 500 \(a server error\) where a 4xx was expected: "<html>/);
    expect(finding).toContain('they were: POST /evaluations (probe: a body breaking /app_id: required (removed))');
    expect(finding).toMatch(/; and \d+ more$/);
    expect(finding?.split('nginx/1.25.3')).toHaveLength(2);
  });

  it('every format quotes the page a bounded number of times, and names the requests that got it', () => {
    for (const [name, text] of Object.entries(formats())) {
      const quoted = text.split('nginx/1.25.3').length - 1;
      // The finding, and where a format shows it twice (message and finding list; the first exchange's excerpt).
      expect(quoted, name).toBeGreaterThanOrEqual(1);
      expect(quoted, name).toBeLessThanOrEqual(4);
      expect(text, name).toMatch(/\d+ requests answered 500/);
      if (name !== 'github summary') expect(text, name).toContain('/app_id: required (removed)');
    }
  });
});

describe('one finding per cause: optional fields sent as null', () => {
  const run = async (name: string) => {
    const deployment = await startConformingServer(mutation(name));
    try {
      return await runContract({ baseUrl: deployment.url });
    } finally {
      await deployment.close();
    }
  };

  it('settings_values null in a documented evaluator_config is a null optional, not an unknown one', async () => {
    const report = await run('optional fields sent as null everywhere, settings_values of finished results too');
    const failed = report.checks.filter((check) => check.outcome === 'failed');
    expect(failed.map((check) => check.id)).toEqual(['create.body.nulls']);
    expect(failed[0]?.findings.join('\n')).toMatch(/aggregated_results\/0\/evaluator_config: optional settings_values/);
  });

  it('an unknown evaluator_config is quoted up to what made it unknown and the null beside it', async () => {
    const report = await run('an evaluator_config with a numeric evaluator_key and settings_values null');
    const known = report.checks.find((check) => check.id === 'create.body.evaluator-config.known');
    expect(known?.message).toContain('(as EvaluatorConfig: ');
    expect(known?.message).toContain('"evaluator_key":42');
    expect(known?.message).toContain('"settings_values":null');
  });
});
