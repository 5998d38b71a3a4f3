import { baselineOf, shownIds, type Baseline } from '../../http/baseline.js';
import { counted } from '../../http/counted.js';
import { redactReport, type Redactor } from '../../http/redaction.js';
import type { CoverageReport } from '../judge/coverage.js';
import type { CheckResult, Note } from '../judge/verdicts.js';
import { reportCoverage, type CoverageMinimum, type ReportCoverage } from './coverage.js';
import { driftFails, type MockComparison } from '../compare/comparison.js';
import { differenceLine } from '../compare/differences.js';
import { driftOf, standingCounts, standingOf } from '../compare/standing.js';

/** PASS: nothing failed that fails the run; NOTHING VERIFIED: no success answer could be checked at all. */
export type Verdict = 'PASS' | 'FAIL' | 'NOTHING VERIFIED';

export interface Summary {
  passed: number;
  /** Failed checks with a finding no `--ignore` file accepts. */
  failed: number;
  /** Failed warning-level checks (also counted in `failed`). */
  warnings: number;
  /** Failed checks whose every finding an `--ignore` file accepts: they fail nothing. */
  accepted: number;
  skipped: number;
}

/** A property's failure after shrinking: the smallest body found, why it fails, and how to replay it. */
export interface Counterexample {
  check: string;
  finding: string;
  /** With secrets replaced by placeholders. */
  body: string;
  curl: string;
  shrinks: number;
}

/** What 429 answers cost a run. A 429 is never a failure by itself: it is waited on and the request sent again. */
export interface RateLimitedCounts {
  /** 429 answers waited on and retried. */
  retried: number;
  /** 429 answers whose wait would have passed the timeout: each is its request's transport failure. */
  beyondTimeout: number;
  /** How long sending was paused for them: waits asked for together overlap, and count once. */
  waitedMs: number;
}

/** How the run was paced, and what 429 answers cost it. */
export interface PacingReport {
  /** Requests in flight at once, at most. */
  concurrency: number;
  /** Requests started per second, at most; none: no cap. */
  ratePerSecond?: number;
  rateLimited: RateLimitedCounts;
}

/** A recorded request the deployment refused (4xx) although the mock accepted it. */
interface ReplayRefusal {
  /** `a request your app sends is refused: POST /evaluations answered 422 (the mock answered 200)`. */
  message: string;
  /** The deployment's answer, redacted and cut: `422 "{\"detail\":[…]}"`. */
  answer: string;
  curl: string;
}

/** A recorded request not sent again, and why. */
interface ReplaySkip {
  request: string;
  reason: string;
}

/** What `--replay` sent: the app's own recorded requests, as the journal or the proxy kept them. */
export interface ReplayReport {
  /** The journal export or the proxy --record folder. */
  source: string;
  replayed: number;
  refused: ReplayRefusal[];
  skipped: ReplaySkip[];
}

export interface Report {
  /** The command that made it: an active run, or the proxy's passive one. Every writer names it. */
  command: 'contract' | 'proxy';
  /** The base URL with its credentials as placeholders. */
  target: string;
  reachable: boolean;
  verdict: Verdict;
  /** Why nothing was verified, with the likely fix, when the verdict is NOTHING VERIFIED. */
  headline?: string;
  strict: boolean;
  /** Certificates were not verified (--insecure). */
  insecure: boolean;
  /** Why the run ended early, when it did. */
  stopped?: string;
  summary: Summary;
  checks: CheckResult[];
  notes: Note[];
  counterexamples: Counterexample[];
  /** Requests sent, redirects and 429 retries not counted. */
  requests: number;
  /**
   * The concurrency and rate limit of the run, and the 429 answers it waited on; absent from the proxy's report,
   * which sends no request of its own.
   */
  pacing?: PacingReport;
  /** With --replay: the recorded requests sent again, refused and skipped. */
  replay?: ReplayReport;
  /** What the run exercised: operations and statuses, response fields, states, request fields. */
  coverage: ReportCoverage;
  /** With --compare-mock: where the mock's answers differ from the deployment's, and the closest mock settings. */
  mock?: MockComparison;
  /** With --ignore: the file's ids this run found, and those it did not (stale). */
  baseline?: Baseline;
  durationMs: number;
}

function summarize(checks: CheckResult[]): Summary {
  const count = (outcome: CheckResult['outcome']) => checks.filter((check) => check.outcome === outcome).length;
  return {
    passed: count('passed'),
    failed: count('failed'),
    warnings: checks.filter((check) => check.outcome === 'failed' && check.severity === 'warning').length,
    accepted: count('accepted'),
    skipped: count('skipped'),
  };
}

/**
 * The counts of a run in words: `12 passed, 2 failed (1 error, 1 warning), 3 skipped`, with `, 1 accepted` before the
 * skipped ones when an --ignore file accepted a failed check's findings.
 */
export function countsText({ passed, failed, warnings, accepted, skipped }: Summary): string {
  const kinds = `${counted(failed - warnings, 'error')}, ${counted(warnings, 'warning')}`;
  const acceptedText = accepted > 0 ? `, ${accepted} accepted` : '';
  return `${passed} passed, ${failed} failed (${kinds})${acceptedText}, ${skipped} skipped`;
}

/** The ids an --ignore file gave, split into those this run found (findings, the mock's differences) and not. */
function baselineOfRun(given: ReadonlySet<string>, checks: readonly CheckResult[], mock?: MockComparison): Baseline {
  return baselineOf(given, [
    ...checks.flatMap((check) => (check.ids ?? []).map(({ id }) => id)),
    ...(mock ? [...mock.differences, ...mock.suggested.differences].map(({ id }) => id) : []),
  ]);
}

/**
 * A failed check's finding ids in one line, each as an --ignore file lists it, how many findings had it when more
 * than one, and whether it is accepted: `ids: 1f804d44846e (3 findings), 0123456789ab (accepted)`.
 */
export function idsText(check: Pick<CheckResult, 'ids' | 'unlistedIds'>): string {
  const ids = check.ids ?? [];
  const each = ids.map(({ id, count, accepted }) => {
    const notes = [...(count > 1 ? [`${count} findings`] : []), ...(accepted ? ['accepted'] : [])];
    return notes.length > 0 ? `${id} (${notes.join(', ')})` : id;
  });
  const unlisted = check.unlistedIds ? `; ${counted(check.unlistedIds, 'finding')} of other ids not kept` : '';
  return `${ids.length === 1 ? 'id' : 'ids'}: ${shownIds(each)}${unlisted}`;
}

/** Ids listed in one line: the first 20, then how many more (a report writer shows them all where it has room). */

/** What `failureReasons` reads: a report's, or a verdict's inputs before the report is built. */
type FailureInputs = Pick<Report, 'summary' | 'strict' | 'replay' | 'mock'> & {
  coverage: Pick<ReportCoverage, 'shortfalls'>;
};

/**
 * What fails the run, each as the verdict line names it: error-level failures (with `strict`, warnings too), a
 * coverage under --min-coverage, replayed requests refused, the mock's drift under --fail-on-drift. The one source of
 * the verdict, of its reasons and of the exit code, so a FAIL beside "0 errors" always says what failed it.
 */
function failureReasons(report: FailureInputs, strict = report.strict): string[] {
  const { failed, warnings } = report.summary;
  const reasons: string[] = [];
  if (failed - warnings > 0) reasons.push(counted(failed - warnings, 'error'));
  if (strict && warnings > 0) reasons.push(`${counted(warnings, 'warning')}, under --strict`);
  if (report.coverage.shortfalls.length > 0) reasons.push(`coverage: ${report.coverage.shortfalls.join('; ')}`);
  const refused = report.replay?.refused.length ?? 0;
  if (refused > 0) reasons.push(`${counted(refused, 'replayed request')} refused`);
  if (driftFails(report.mock)) {
    const ways = counted(driftOf(report.mock?.differences ?? []).length, 'way');
    reasons.push(`--fail-on-drift: the mock differs from the deployment in ${ways}`);
  }
  return reasons;
}

/**
 * The verdict, from the reasons the exit code reads: FAIL for an unreachable target or any reason; NOTHING VERIFIED
 * when no success body was checked and nothing but a coverage under its minimum fails the run (a run that verified
 * nothing always is, and that it verified nothing is the news); PASS otherwise.
 */
function verdictFrom(inputs: FailureInputs & Pick<Report, 'reachable'>, verified: boolean): Verdict {
  if (!inputs.reachable) return 'FAIL';
  const reasons = failureReasons(inputs).length;
  const beyondCoverage = reasons - (inputs.coverage.shortfalls.length > 0 ? 1 : 0);
  if (!verified && beyondCoverage === 0) return 'NOTHING VERIFIED';
  return reasons > 0 ? 'FAIL' : 'PASS';
}

/**
 * The verdict as a reader needs it beside the counts: a FAIL names what failed the run, and a PASS next to "1 failed"
 * says why the run still passes, since only errors fail it unless --strict is given.
 */
export function verdictText(
  report: Pick<Report, 'verdict' | 'summary' | 'strict' | 'coverage' | 'reachable' | 'mock' | 'replay'>,
): string {
  const { verdict, summary, strict, reachable } = report;
  // Nothing was checked: a FAIL beside "0 failed" would read as a contract failure, while the exit code is 2.
  if (!reachable) return 'FAIL (unreachable: nothing was checked)';
  const reasons = failureReasons(report);
  if (verdict === 'FAIL' && reasons.length > 0) return `FAIL (${reasons.join('; ')})`;
  if (verdict !== 'PASS' || summary.warnings === 0 || strict) return verdict;
  return `PASS (${counted(summary.warnings, 'warning')}: warnings fail a run only with --strict)`;
}

/** A check whose failure fails the run (and the JUnit build): an error always, a warning with `strict`. */
export function failsTheRun(check: CheckResult, strict: boolean): boolean {
  return check.outcome === 'failed' && (strict || check.severity === 'error');
}

/** Success bodies checked: without one, every body check was skipped and a green run would say nothing. */
function verifiedAnything(checks: CheckResult[]): boolean {
  return checks.some((check) => check.id.endsWith('.body.json') && check.outcome !== 'skipped');
}

/**
 * The verdict line's word for checks alone (no replay, no coverage minimum, no comparison with the mock): FAIL on a
 * failure that fails the run (with `strict`, any failure) or an unreachable target; NOTHING VERIFIED when no success
 * body could be checked; PASS otherwise.
 */
export function verdictOf(checks: CheckResult[], reachable: boolean, strict: boolean): Verdict {
  const inputs = { summary: summarize(checks), strict, reachable, coverage: { shortfalls: [] } };
  return verdictFrom(inputs, verifiedAnything(checks));
}

/**
 * 0 no error-level failure; 1 an error-level failure (with `strict`, any failure), nothing verified at all, or a
 * coverage under the minimum asked for, or a replayed request refused; 2 the deployment was not reachable.
 */
export function exitCode(report: Report, strict = report.strict): number {
  if (!report.reachable) return 2;
  return report.verdict === 'NOTHING VERIFIED' || failureReasons(report, strict).length > 0 ? 1 : 0;
}

/** A reason the run as a whole fails besides its checks and refused replays: one JUnit `run.*` testcase each. */
export interface RunFailure {
  id: 'run.verified' | 'run.coverage' | 'run.mock';
  /** One line: JUnit's failure message, GitHub's annotation's first line. */
  reason: string;
  /** The lines behind it (the reason first). */
  details: string[];
}

/**
 * The comparison with the mock, as lines (`--compare-mock`): the mock's command and counts, each of its differences,
 * those accepted, the deployment's own spec violations apart, and the closest mock. Differences hold the
 * deployment's text, which every report escapes as it renders them.
 */
/**
 * What a comparison that compared nothing says, in every writer: the run stopped before any answer arrived, so there
 * is no difference to list and no closest mock to suggest. Undefined when requests were compared.
 */
export function nothingCompared(mock: MockComparison): string | undefined {
  if (mock.compared > 0) return undefined;
  return `compared with the mock (${mock.command}): nothing compared, no request of the run got an answer to compare`;
}

export function mockLines(mock: MockComparison): string[] {
  const nothing = nothingCompared(mock);
  if (nothing) return [nothing];
  const { drift, accepted, violations } = standingOf(mock.differences);
  return [
    `${mock.command}: ${standingCounts(mock.differences)} over ${mock.compared} requests`,
    ...drift.map((difference) => `${differenceLine(difference)}: ${difference.notice}`),
    ...accepted.map((difference) => `accepted: ${differenceLine(difference)}`),
    ...(violations.length > 0 ? [`the deployment's own spec violations (its checks report them):`] : []),
    ...violations.map(differenceLine),
    `closest: ${mock.suggested.command} (${mock.suggested.differences.length} remain)`,
  ];
}

/** Why the run fails besides its checks and replays, in JUnit's order: nothing verified, coverage, drift. */
export function runFailures(report: Report): RunFailure[] {
  const failures: RunFailure[] = [];
  if (report.verdict === 'NOTHING VERIFIED') {
    const reason = report.headline ?? 'nothing verified';
    failures.push({ id: 'run.verified', reason, details: [reason] });
  }
  if (report.coverage.shortfalls.length > 0) {
    const reason = `coverage below --min-coverage: ${report.coverage.shortfalls.join('; ')}`;
    failures.push({ id: 'run.coverage', reason, details: [reason] });
  }
  if (report.mock && driftFails(report.mock)) {
    const lines = mockLines(report.mock);
    failures.push({ id: 'run.mock', reason: lines[0] as string, details: lines });
  }
  return failures;
}

/** The replay's counts in words: `5 replayed, 1 refused, 2 skipped`. */
export function replayCountsText({ replayed, refused, skipped }: ReplayReport): string {
  return `${replayed} replayed, ${refused.length} refused, ${skipped.length} skipped`;
}

/** What a run (active or proxied) saw, from which its report is built: the report less what `buildReport` derives. */
export interface ReportInput extends Omit<Report, 'verdict' | 'headline' | 'summary' | 'coverage' | 'baseline'> {
  coverage: CoverageReport;
  /** The ids an --ignore file lists: the checks given were judged with them (`Verdicts.results`). */
  accepted?: ReadonlySet<string>;
  /** The least coverage the run must reach: under it, the verdict is FAIL. */
  minimumCoverage?: CoverageMinimum;
  /** Why nothing was verified, asked only when nothing was. */
  nothingVerified(): string;
  /** Every credential the run knows of. */
  redactor: Redactor;
}

/**
 * The report of a run, with its verdict and summary, every string redacted: the one place every report's text passes,
 * so whatever a deployment echoed, no credential leaves in clear and every writer reads the same model.
 */
export function buildReport(input: ReportInput): Report {
  const { checks, reachable, strict, stopped, pacing, replay } = input;
  const coverage = reportCoverage(input.coverage, input.minimumCoverage);
  const summary = summarize(checks);
  const report: Report = {
    command: input.command,
    target: input.target,
    reachable,
    verdict: verdictFrom({ summary, strict, reachable, coverage, replay, mock: input.mock }, verifiedAnything(checks)),
    ...(reachable && !verifiedAnything(checks) ? { headline: input.nothingVerified() } : {}),
    strict,
    insecure: input.insecure,
    ...(stopped ? { stopped } : {}),
    summary,
    checks,
    notes: input.notes,
    counterexamples: input.counterexamples,
    requests: input.requests,
    ...(pacing ? { pacing } : {}),
    ...(replay ? { replay } : {}),
    coverage,
    ...(input.mock ? { mock: input.mock } : {}),
    ...(input.accepted ? { baseline: baselineOfRun(input.accepted, checks, input.mock) } : {}),
    durationMs: input.durationMs,
  };
  return redactReport(report, input.redactor);
}
