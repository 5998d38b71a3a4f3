import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareMockOptions } from '../../cli/compare-mock.js';
import { differenceLine, type MockDifference } from '../../contract/compare/differences.js';
import {
  exitCode,
  githubAnnotations,
  githubStepSummary,
  htmlReport,
  jsonReport,
  junitReport,
  runContract,
  terminalReport,
  type Report,
} from '../../contract/index.js';
import { escapeControlCharacters } from '../../http/redaction.js';
import { startMockServer } from '../../mock/index.js';
import { runCli } from '../helpers/cli.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import { humanEvaluation } from './bank.js';
import { startConformingServer, type RunningServer } from './conforming-server.js';

/**
 * The name of a field the deployment sends as null (an undeclared field: the contract allows it, so only the
 * comparison reports it, as `null or absent`): a terminal escape, line breaks that would start a workflow command,
 * a runner command in its `##[` form, markup that would close an XML element or a CDATA section, and a mention.
 */
const hostile = 'note\u001b[31m\n::error::forged\r\n##[add-mask]x <b>bold</b>]]> & @octocat';

/** What a reader of each output must never get from the deployment's text as it was sent. */
const raw = ['\u001b', '##[', '<b>', ']]>'];

/** A run's Report with the comparison, against a deployment at `url`, the mock as `evalkit mock` starts. */
function compared(url: string, failOnDrift = false): Promise<Report> {
  const flags = { 'compare-mock': true, ...(failOnDrift ? { 'fail-on-drift': true } : {}) };
  return runContract({ baseUrl: url, compareMock: compareMockOptions(flags, url) });
}

const dir = tempDir('evalkit-compare-reports-');
let differing: RunningServer;
let same: Awaited<ReturnType<typeof startMockServer>>;
/** The conforming deployment that sends the hostile field as null: the mock differs from it. */
let drift: Report;
let driftFailing: Report;
/** evalkit's own mock compared with itself: no difference. */
let none: Report;
let noneFailing: Report;
let differences: MockDifference[];

beforeAll(async () => {
  differing = await startConformingServer({ rewrite: humanEvaluation((record) => ({ ...record, [hostile]: null })) });
  same = await startMockServer({ port: 0, journalSize: 0, log: () => undefined });
  [drift, driftFailing, none, noneFailing] = await Promise.all([
    compared(differing.url),
    compared(differing.url, true),
    compared(same.url),
    compared(same.url, true),
  ]);
  differences = drift.mock?.differences ?? [];
  // The deployment keeps the contract: the comparison alone tells it from the mock.
  expect(drift.verdict).toBe('PASS');
  expect(none.verdict).toBe('PASS');
  expect(differences.find((difference) => difference.fields?.includes(hostile))).toMatchObject({
    aspect: 'null or absent',
    deployment: 'null',
    mock: 'left out',
  });
  expect(none.mock?.differences).toEqual([]);
});
afterAll(async () => {
  await Promise.all([differing.close(), same.close()]);
  removeTempDirs();
});

/** The lines of an output (any line break a terminal, a runner or a renderer reads) that hold this text. */
const linesWith = (text: string, part: string) => text.split(/\r\n|\r|\n/).filter((line) => line.includes(part));

describe('the --compare-mock section of the terminal report', () => {
  it('names each difference on a DIFF line, with both answers, then the closest mock command', () => {
    const text = terminalReport(drift, { colour: false });
    const mock = drift.mock as NonNullable<Report['mock']>;
    expect(text).toContain(`Compared with the mock (evalkit mock): ${mock.compared} requests, `);
    expect(text).toContain(`${differences.length} differences`);
    for (const difference of differences)
      expect(text).toContain(`  DIFF ${escapeControlCharacters(differenceLine(difference))}\n`);
    expect(text).toContain(`Closest mock: ${mock.suggested.command} (`);
    expect(linesWith(text, 'DIFF').length).toBe(differences.length + mock.suggested.differences.length);
  });

  it('says 0 differences when the mock answers as the deployment does, with no DIFF line', () => {
    const text = terminalReport(none, { colour: false });
    expect(text).toContain(`Compared with the mock (evalkit mock): ${none.mock?.compared} requests, 0 differences\n`);
    expect(text).toContain('Closest mock: evalkit mock (0 differences remain)');
    expect(text).not.toContain('DIFF');
  });

  it("shows the deployment's field name with its controls escaped, on the DIFF line alone", () => {
    const text = terminalReport(drift, { colour: false });
    for (const part of raw.slice(0, 2)) expect(text).not.toContain(part);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    // The DIFF line, again under the closest mock, and the note on the undocumented field: evalkit's lines all.
    const lines = linesWith(text, 'forged');
    expect(lines.filter((line) => line.startsWith('  DIFF '))).toHaveLength(2);
    for (const line of lines)
      expect(line).toMatch(
        /^ {2}(DIFF null or absent \(note\\x1b\[31m\\x0a::error::forged\\x0d\\x0a##\\x5badd-mask\]x|NOTE )/,
      );
  });
});

describe('the --compare-mock testcase of the JUnit report', () => {
  /** The one run.mock testcase: its element, whole. */
  const mockCase = (xml: string) => /<testcase name="run\.mock" classname="run">.*?<\/testcase>/s.exec(xml)?.[0] ?? '';

  it('a passed run.mock testcase whose output names each difference and the closest mock', () => {
    const xml = junitReport(drift);
    const testcase = mockCase(xml);
    expect(testcase).toMatch(/^<testcase name="run\.mock" classname="run"><system-out>evalkit mock: \d+ differences/);
    expect(testcase).not.toContain('<failure');
    expect(testcase).toContain(`closest: ${drift.mock?.suggested.command} (`);
    for (const difference of differences.filter((one) => !one.fields?.includes(hostile)))
      expect(testcase).toContain(`${differenceLine(difference).replace(/"/g, '&quot;')}: `);
    // The run.mock testcase is counted, not failed.
    const total = drift.checks.length + 1;
    expect(xml).toMatch(new RegExp(`<testsuites [^>]*tests="${total}" failures="0"`));
  });

  it('a run with no difference says 0 differences', () => {
    expect(mockCase(junitReport(none))).toContain('<system-out>evalkit mock: 0 differences over');
  });

  it("keeps the deployment's markup as text: entities, controls shown, the file's elements evalkit's only", () => {
    const xml = junitReport(drift);
    for (const part of raw) expect(xml).not.toContain(part);
    expect(mockCase(xml)).toContain('\\x1b[31m');
    // Nor a line of its own: the deployment's line breaks are shown too.
    const lines = linesWith(xml, 'forged');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^null or absent \(note\\x1b\[31m\\x0a::error::forged\\x0d\\x0a##\\x5badd-mask\]x /);
    expect(mockCase(xml)).toContain('&lt;b&gt;bold&lt;/b&gt;]]&gt; &amp; @octocat');
    // Every `<` opens or closes one of the elements a JUnit writer makes; every `&` starts an entity.
    const elements = xml.match(/<[^>]*>/g) ?? [];
    for (const element of elements)
      expect(element).toMatch(
        /^<(\?xml |\/?(testsuites|testsuite|testcase|failure|system-out|properties|skipped)\b|property )/,
      );
    expect(xml.replace(/<[^>]*>/g, '')).not.toMatch(/[<>]/);
    expect(xml).not.toMatch(/&(?!(amp|lt|gt|quot|apos);)/);
  });

  it('with --fail-on-drift, run.mock is a failure counted in the suite', () => {
    const xml = junitReport(driftFailing);
    expect(mockCase(xml)).toMatch(/^<testcase name="run\.mock" classname="run"><failure type="error" message="/);
    expect(xml).toMatch(/<testsuites [^>]*failures="1"/);
    // Without a difference there is nothing to fail.
    expect(mockCase(junitReport(noneFailing))).not.toContain('<failure');
  });
});

describe('the --compare-mock part of the GitHub output', () => {
  it('the step summary lists each difference on a line of its own, then the closest mock command', () => {
    const summary = githubStepSummary(drift);
    expect(summary).toContain(`Compared with the mock (evalkit mock): ${differences.length} differences\n`);
    const listed = summary.split('\n').filter((line) => line.startsWith('- '));
    expect(listed).toHaveLength(differences.length);
    for (const [index, difference] of differences.entries())
      expect(listed[index]).toMatch(new RegExp(`^- ${difference.aspect}.*: ${escapeRegExp(difference.notice)}$`));
    expect(summary).toContain(`Closest mock: evalkit mock`);
  });

  it('a run with no difference: 0 differences and the mock as it started, with nothing listed', () => {
    const summary = githubStepSummary(none);
    expect(summary).toContain('Compared with the mock (evalkit mock): 0 differences\n');
    expect(summary).toContain('Closest mock: evalkit mock (0 differences remain)');
    expect(summary.split('\n').filter((line) => line.startsWith('- '))).toEqual([]);
  });

  it("escapes the deployment's text: no line break, markup, mention or runner command reaches the summary", () => {
    const summary = githubStepSummary(drift);
    for (const part of [...raw, '@octocat']) expect(summary).not.toContain(part);
    const [line, ...others] = linesWith(summary, 'forged');
    expect(others).toEqual([]);
    expect(line).toMatch(/^- null or absent \(note\\\\x1b\\\[31m\\\\x0a::error::forged/);
    expect(line).toContain('&lt;b&gt;bold&lt;/b&gt;\\]\\]&gt; &amp; @&#8203;octocat');
    // A conforming deployment: no annotation at all, so none can carry the field's name.
    expect(githubAnnotations(drift)).toBe('');
  });

  it('--fail-on-drift: FAIL with the reason in the heading, exit code 1; without a difference, the run`s 0', () => {
    expect(githubStepSummary(driftFailing).split('\n')[0]).toMatch(
      /^## evalkit contract: FAIL \(--fail-on-drift: the mock differs from the deployment in \d+ ways\)$/,
    );
    expect([exitCode(drift), exitCode(driftFailing), exitCode(none), exitCode(noneFailing)]).toEqual([0, 1, 0, 0]);
  });

  it('under GITHUB_ACTIONS=true: no forged command, the drift annotated, the section summed up, exit 1', async () => {
    const summaryFile = join(dir, 'summary.md');
    writeFileSync(summaryFile, '');
    const run = await runCli(['contract', '--base-url', differing.url, '--compare-mock', '--fail-on-drift'], {
      env: { ...process.env, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile, NO_COLOR: '1' },
    });
    expect(run.code).toBe(1);
    // The runner reads a command at the start of any stdout line, and `##[` anywhere: the terminal report is there.
    // The one command is evalkit's: the drift's annotation, saying why the job fails, its differences on one line.
    const commands = run.stdout.split(/\r\n|\r|\n/).filter((line) => line.trimStart().startsWith('::'));
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatch(/^::error title=run\.mock::evalkit mock: \d+ differences over \d+ requests%0A/);
    expect(run.stdout).not.toContain('##[');
    expect(run.stdout).toMatch(/^ {2}DIFF null or absent \(note\\x1b/m);
    const written = readFileSync(summaryFile, 'utf8');
    expect(written).toMatch(/^## evalkit contract: FAIL \(--fail-on-drift: /);
    expect(written).toContain('Compared with the mock (evalkit mock): ');
    expect(written).toContain('Closest mock: evalkit mock');
  });
});

describe("the deployment's own spec violations and accepted differences, in every writer", () => {
  const violation: MockDifference = {
    id: 'aaaaaaaaaaaa',
    operation: 'GET /human-evaluations/{evaluation_id}',
    aspect: 'status',
    deployment: '500',
    mock: '200',
    requests: ['GET /human-evaluations/x (an unknown ObjectId)'],
    count: 1,
    answers: { deployment: '500 text/plain "Internal Server Error"', mock: '200 application/json {}' },
    notice: 'code that branches on the status takes another path',
    deploymentBreaksSpec: true,
    check: 'fetch.status.5xx',
    accepted: false,
  };
  const accepted: MockDifference = {
    ...violation,
    id: 'bbbbbbbbbbbb',
    aspect: 'content type',
    deployment: 'text/html',
    mock: 'application/json',
    deploymentBreaksSpec: false,
    accepted: true,
  };
  delete accepted.check;
  /** The conforming run's report with a violation and an accepted difference beside its drift, failing on drift. */
  const marked = (drifting: boolean): Report => {
    const mock = drift.mock as NonNullable<Report['mock']>;
    const own = drifting ? mock.differences : [];
    return { ...drift, mock: { ...mock, differences: [...own, violation, accepted], failOnDrift: true } };
  };

  it('the terminal counts each kind apart and lists the violations under a heading of their own, ids shown', () => {
    const text = terminalReport(marked(true), { colour: false });
    const count = differences.length;
    expect(text).toContain(`requests, ${count} differences, 1 accepted, 1 the deployment's own spec violation\n`);
    expect(text).toContain(
      "The deployment's own spec violations (its failed checks above), not counted as the mock's:\n" +
        '  SPEC status: the deployment 500, the mock 200 (GET /human-evaluations/x (an unknown ObjectId), ' +
        'failing fetch.status.5xx) [aaaaaaaaaaaa]\n',
    );
    expect(text).toMatch(/^ {2}ACCEPTED content type: the deployment text\/html, .* \[bbbbbbbbbbbb\]$/m);
    expect(linesWith(text, 'DIFF').every((line) => / \[[0-9a-f]{12}\]$/.test(line))).toBe(true);
  });

  it('JSON marks them; JUnit, the GitHub summary and HTML list them apart, naming the check', () => {
    const report = marked(true);
    const json = JSON.parse(jsonReport(report)) as { mock: { differences: MockDifference[] } };
    expect(json.mock.differences.slice(-2)).toEqual([violation, accepted]);
    const junit = junitReport(report);
    expect(junit).toContain(
      'the deployment&apos;s own spec violations (its checks report them):\nstatus: the deployment',
    );
    expect(junit).toContain('failing fetch.status.5xx) [aaaaaaaaaaaa]');
    expect(junit).toContain('accepted: content type: the deployment text/html');
    const summary = githubStepSummary(report);
    expect(summary).toContain(
      "The deployment's own spec violations (see its failed checks), not counted as the mock's:\n\n- status: ",
    );
    expect(summary).toContain('failing fetch.status.5xx) \\[aaaaaaaaaaaa\\]');
    expect(summary).toContain('Accepted (listed in the ignore file):\n\n- content type: ');
    const html = htmlReport(report);
    expect(html).toContain('<h3>The deployment&#39;s own spec violations');
    expect(html).toContain('the deployment fails fetch.status.5xx');
    expect(html).toContain('<code>bbbbbbbbbbbb</code>');
  });

  it('--fail-on-drift fails on the drift alone: a violation and an accepted difference pass', () => {
    expect(exitCode(marked(false))).toBe(0);
    expect(githubStepSummary(marked(false))).toContain('): 0 differences, 1 accepted, 1 the deployment');
    expect(exitCode(marked(true))).toBe(1);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
