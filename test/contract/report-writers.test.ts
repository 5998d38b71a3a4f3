import { describe, expect, it } from 'vitest';
import { catalogue, exitCode, htmlReport, terminalReport } from '../../contract/index.js';
import { Coverage } from '../../contract/judge/coverage.js';
import { finding } from '../../contract/judge/define.js';
import { Verdicts } from '../../contract/judge/verdicts.js';
import { buildReport, type ReplayReport, type Report, type ReportInput } from '../../contract/report/model.js';
import { Redactor } from '../../http/redaction.js';

/** The writers fed a model built as a run builds it, from a Verdicts: no server, no run. */
function reportOf(verdicts: Verdicts, input: Partial<Pick<ReportInput, 'strict' | 'replay' | 'minimumCoverage'>> = {}) {
  return buildReport({
    command: 'contract',
    target: 'http://127.0.0.1:8000/',
    reachable: true,
    strict: false,
    insecure: false,
    checks: verdicts.results(),
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
