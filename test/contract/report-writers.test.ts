import { describe, expect, it } from 'vitest';
import { catalogue, exitCode, htmlReport, terminalReport } from '../../contract/index.js';
import { Coverage } from '../../contract/judge/coverage.js';
import { finding } from '../../contract/judge/define.js';
import { findingId } from '../../contract/judge/finding-id.js';
import { everyReportFormat } from './report-outputs.js';
import { Verdicts } from '../../contract/judge/verdicts.js';
import { buildReport, type ReplayReport, type Report, type ReportInput } from '../../contract/report/model.js';
import { Redactor } from '../../http/redaction.js';

/** The writers fed a model built as a run builds it, from a Verdicts: no server, no run. */
function reportOf(
  verdicts: Verdicts,
  input: Partial<Pick<ReportInput, 'strict' | 'replay' | 'minimumCoverage' | 'accepted'>> = {},
) {
  return buildReport({
    command: 'contract',
    target: 'http://127.0.0.1:8000/',
    reachable: true,
    strict: false,
    insecure: false,
    checks: verdicts.results(input.accepted),
    notes: [],
    counterexamples: [],
    requests: 1,
    coverage: new Coverage().report(),
    nothingVerified: () => 'nothing verified: no success answer to check',
    redactor: new Redactor(() => []),
    durationMs: 1,
    ...input,
  });
}

const serverError = 'answered 500 (a server error) where a 4xx was expected: "Internal Server Error"';
const probe = (field: string) => `POST /evaluations (probe: a body breaking /${field}: required (removed))`;
const probes = (count: number) => Array.from({ length: count }, (_, index) => probe(`field_${index}`));

/** One grouped 5xx finding: every probe got the same 500. */
function grouped(subjects: readonly string[]): Verdicts {
  const verdicts = new Verdicts();
  verdicts.pass('create.body.json');
  for (const subject of subjects)
    verdicts.fail('create.status.5xx', { subject, answer: serverError, cause: ['500', 'a 4xx'] });
  return verdicts;
}

/** The verdict line's verdict, before its counts: `FAIL (1 replayed request refused)`. */
const verdictOf = (report: Report) =>
  (terminalReport(report, { colour: false }).trimEnd().split('\n').at(-1) ?? '').replace(/: \d+ passed, .*$/, '');

describe("a grouped finding's probes, as the writers show them", () => {
  it('the terminal lists them one per line under the cause, the check line without them', () => {
    const subjects = probes(16);
    const lines = terminalReport(reportOf(grouped(subjects)), { colour: false }).split('\n');
    const cause = lines.findIndex((line) => line.includes(serverError));
    expect(lines.filter((line) => line.includes(serverError))).toHaveLength(1);
    expect(lines[cause - 1]).toMatch(/ create\.status\.5xx /);
    const listed = lines.slice(cause + 1, cause + 1 + subjects.length);
    expect(listed.map((line) => line.trim())).toEqual(subjects.map((subject) => `- ${subject}`));
    for (const subject of subjects) expect(lines.filter((line) => line.includes(subject))).toHaveLength(1);
  });

  it('the terminal cuts a long request to a line of its own size, and counts those it does not list', () => {
    const long = `GET /human-evaluations/${'x'.repeat(1000)}`;
    const subjects = [long, ...probes(40)];
    const lines = terminalReport(reportOf(grouped(subjects)), { colour: false }).split('\n');
    const longLine = lines.find((line) => line.includes(long.slice(0, 100)));
    expect(longLine?.length).toBeLessThan(long.length / 2);
    expect(longLine).toContain(String(long.length));
    const listed = lines.filter((line) => line.trim().startsWith('- '));
    expect(lines).toContain(`         and ${subjects.length - listed.length} more`);
  });

  it('the HTML page names each once', () => {
    const subjects = probes(16);
    const html = htmlReport(reportOf(grouped(subjects)));
    for (const subject of subjects) expect(html.split(subject).length - 1, subject).toBe(1);
  });
});

/** A replay that sent `refused + 1` requests, `refused` of them refused. */
function replayRefusing(refused: number): ReplayReport {
  const refusal = {
    message: 'a request your app sends is refused: POST /evaluations answered 422 (the mock answered 200)',
    answer: '422 "{\\"detail\\":[]}"',
    curl: "curl -sS -i -X POST 'http://127.0.0.1:8000/evaluations'",
  };
  return { source: 'journal.json', replayed: refused + 1, refused: Array(refused).fill(refusal), skipped: [] };
}

/** Each way a verified run fails, alone: what the verdict line must name, and the model that fails for it. */
const causes = {
  error: { names: /\d+ errors?/, verdicts: (v: Verdicts) => v.fail(idOf('error'), finding('broken')) },
  'strict warning': {
    names: /--strict/,
    verdicts: (v: Verdicts) => v.fail(idOf('warning'), finding('odd')),
    strict: true,
  },
  'replay refusal': { names: /replayed requests? refused/, replay: replayRefusing(1) },
  coverage: { names: /coverage: /, minimumCoverage: { fields: 50 } },
} as const;

/** A check of the given severity that is no body check (which would say the run verified something). */
function idOf(severity: 'error' | 'warning') {
  const check = catalogue.find((candidate) => candidate.severity === severity && !candidate.id.includes('.body.'));
  if (!check) throw new Error(`no ${severity} check`);
  return check.id;
}

describe('a check with more findings than the terminal lists', () => {
  it('counts the rest in findings, as the message does, not in lines', () => {
    const verdicts = new Verdicts();
    // 25 answers, each shared by two probes: 50 findings, grouped.
    for (let index = 0; index < 50; index++) {
      const answer = `500 page ${index % 25}`;
      verdicts.fail('create.status.5xx', { subject: `probe ${index}`, answer, cause: [`${index % 25}`] });
    }
    const report = reportOf(verdicts);
    const check = report.checks.find((candidate) => candidate.id === 'create.status.5xx');
    expect(check?.message).toMatch(/; and 44 more$/);
    expect(terminalReport(report, { colour: false })).toMatch(/\n {7}and 44 more findings\n/);
  });
});

describe('the verdict line says what failed the run, from what the exit code reads', () => {
  it.each(Object.entries(causes))('%s alone: FAIL, exit 1, the line names it', (_name, cause) => {
    const verdicts = new Verdicts();
    verdicts.pass('create.body.json');
    if ('verdicts' in cause) cause.verdicts(verdicts);
    const report = reportOf(verdicts, {
      ...('strict' in cause ? { strict: cause.strict } : {}),
      ...('replay' in cause ? { replay: cause.replay } : {}),
      ...('minimumCoverage' in cause ? { minimumCoverage: cause.minimumCoverage } : {}),
    });
    expect(exitCode(report)).toBe(1);
    const verdict = verdictOf(report);
    expect(verdict).toMatch(/^FAIL \(.+\)$/);
    expect(verdict).toMatch(cause.names);
    expect(htmlReport(report)).toContain(`<h1>${verdict}</h1>`);
  });

  it('every mix of causes, verified or not: exit 0 exactly when the line says PASS, a FAIL names each cause', () => {
    const names = Object.keys(causes) as Array<keyof typeof causes>;
    for (let mask = 0; mask < 2 ** (names.length + 1); mask++) {
      const chosen = names.filter((_, index) => mask & (1 << index));
      const verified = (mask & (1 << names.length)) !== 0;
      const verdicts = new Verdicts();
      if (verified) verdicts.pass('create.body.json');
      const input: Parameters<typeof reportOf>[1] = {};
      for (const name of chosen) {
        const cause: (typeof causes)[keyof typeof causes] = causes[name];
        if ('verdicts' in cause) cause.verdicts(verdicts);
        if ('strict' in cause) input.strict = cause.strict;
        if ('replay' in cause) input.replay = cause.replay;
        if ('minimumCoverage' in cause) input.minimumCoverage = cause.minimumCoverage;
      }
      const report = reportOf(verdicts, input);
      const verdict = verdictOf(report);
      const context = `${chosen.join(', ') || 'nothing'}${verified ? '' : ', nothing verified'}: ${verdict}`;
      expect(exitCode(report), context).toBe(verdict.startsWith('PASS') ? 0 : 1);
      if (verdict.startsWith('FAIL')) for (const name of chosen) expect(verdict, context).toMatch(causes[name].names);
    }
  });
});

describe('findings an --ignore file accepts, and its ids no finding had, as every writer shows them', () => {
  const served = findingId('fetch', 'fetch.status.5xx', ['500']);
  const refused = findingId('create', 'create.status.5xx', ['500', 'a 4xx']);
  const stale = 'feedfacecafe';
  function failing(): Verdicts {
    const verdicts = new Verdicts();
    verdicts.pass('create.body.json');
    verdicts.judging("curl 'http://127.0.0.1:8000/human-evaluations/x'");
    verdicts.fail('fetch.status.5xx', { subject: 'GET /human-evaluations/x', answer: 'answered 500', cause: ['500'] });
    for (const subject of probes(3))
      verdicts.fail('create.status.5xx', { subject, answer: serverError, cause: ['500', 'a 4xx'] });
    return verdicts;
  }
  const accepting = (accepted: ReadonlySet<string>, verdicts = failing()) => reportOf(verdicts, { accepted });

  it('every finding accepted: PASS, exit 0, each listed as accepted with its id; the stale id in every format', () => {
    const report = accepting(new Set([served, refused, stale]));
    expect(exitCode(report)).toBe(0);
    expect(verdictOf(report)).toBe('PASS');
    expect(report.summary).toMatchObject({ failed: 0, accepted: 2 });
    expect(report.baseline).toEqual({ accepted: [served, refused], stale: [stale] });
    const formats = everyReportFormat(report);
    for (const [format, text] of Object.entries(formats)) {
      if (format !== 'annotations') for (const id of [served, refused]) expect(text, format).toContain(id);
      expect(text, format).toContain(stale);
    }
    expect(formats.terminal).toMatch(/^ {2}ACCEPTED fetch\.status\.5xx /m);
    expect(formats.terminal).toMatch(/1 stale id, found no more \(remove from the file\): feedfacecafe/);
    expect(formats.terminal).toContain(', 2 accepted, ');
    expect(formats.junit).not.toContain('<failure');
    expect(formats.annotations).not.toMatch(/^::(error|warning)/m);
    expect(formats.html).toContain('ACCEPTED');
    const json = JSON.parse(formats.json as string) as {
      checks: Array<{ id: string; outcome: string; findingIds?: string[] }>;
    };
    expect(json.checks.find((check) => check.id === 'fetch.status.5xx')).toMatchObject({
      outcome: 'accepted',
      findingIds: [served],
    });
  });

  it('an accepted id found after 100 others of its check is accepted, never reported stale', () => {
    const causes = Array.from({ length: 101 }, (_, index) => `cause ${index}`);
    const late = findingId('fetch', 'fetch.status.5xx', [causes[100] as string]);
    const verdicts = new Verdicts(new Set([late]));
    for (const cause of causes) verdicts.fail('fetch.status.5xx', finding(`GET answered 500 (${cause})`, cause));
    const report = reportOf(verdicts, { accepted: new Set([late]) });
    expect(report.baseline).toEqual({ accepted: [late], stale: [] });
  });

  it('one finding left out of the file: its check fails the run alone, the accepted one still listed, marked', () => {
    const report = accepting(new Set([served]));
    expect(exitCode(report)).toBe(1);
    expect(verdictOf(report)).toBe('FAIL (1 error)');
    expect(report.baseline).toEqual({ accepted: [served], stale: [] });
    const outcomes = Object.fromEntries(report.checks.map((check) => [check.id, check.outcome]));
    expect(outcomes).toMatchObject({ 'fetch.status.5xx': 'accepted', 'create.status.5xx': 'failed' });
    expect(terminalReport(report, { colour: false })).toMatch(/\n {7}id: [0-9a-f]{12} \(3 findings\)\n/);
  });

  it('a check with an accepted finding and a new one fails, naming the new one first, with its curl', () => {
    const verdicts = failing();
    verdicts.judging("curl 'http://127.0.0.1:8000/human-evaluations/y'");
    verdicts.fail('fetch.status.5xx', { subject: 'GET /human-evaluations/y', answer: 'answered 503', cause: ['503'] });
    const report = accepting(new Set([served]), verdicts);
    const check = report.checks.find((candidate) => candidate.id === 'fetch.status.5xx');
    expect(check?.outcome).toBe('failed');
    expect(check?.message.startsWith('GET /human-evaluations/y answered 503')).toBe(true);
    expect(check?.reproduce).toBe("curl 'http://127.0.0.1:8000/human-evaluations/y'");
    expect(check?.views?.map((view) => view.accepted)).toEqual([false, true]);
    expect(check?.ids?.map((found) => found.accepted)).toEqual([true, false]);
  });
});
