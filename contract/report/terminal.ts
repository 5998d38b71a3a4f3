import { baselineText } from '../../http/baseline.js';
import { counted } from '../../http/counted.js';
import { escapeControlCharacters as shown } from '../../http/redaction.js';
import { coverageHeading, coverageLines } from './coverage.js';
import { countsText, idsText, nothingCompared, replayCountsText, verdictText, type Report } from './model.js';
import { shownFindings, type CheckResult } from '../judge/verdicts.js';
import { differenceLine } from '../compare/differences.js';
import { standingCounts, standingOf } from '../compare/standing.js';

export interface TerminalStyle {
  colour: boolean;
}

/** Colour only on a TTY, and never when NO_COLOR is set to anything (https://no-color.org). */
export function terminalStyle(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): TerminalStyle {
  return { colour: stream.isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === '') };
}

const codes = { red: 31, yellow: 33, green: 32, dim: 2, bold: 1 } as const;

export function painter(style: TerminalStyle) {
  return (code: keyof typeof codes, text: string) => (style.colour ? `\u001b[${codes[code]}m${text}\u001b[0m` : text);
}

export function mark(check: CheckResult, paint: ReturnType<typeof painter>): string {
  if (check.outcome === 'passed') return paint('green', 'PASS');
  if (check.outcome === 'skipped') return paint('dim', 'SKIP');
  if (check.outcome === 'accepted') return paint('dim', 'ACCEPTED');
  return check.severity === 'error' ? paint('red', 'FAIL') : paint('yellow', 'WARN');
}

const insecureWarning =
  'INSECURE: TLS certificates were NOT verified (--insecure); a man in the middle would go unnoticed';

/**
 * The human report: checks grouped by operation, then notes, reproductions, and one verdict line. Every text that
 * may come from the deployment goes through `shown` (control characters escaped) before it is painted.
 */
export function terminalReport(report: Report, style: TerminalStyle): string {
  const paint = painter(style);
  const lines = [paint('bold', `evalkit ${report.command} ${shown(report.target)}`), ''];
  if (report.insecure) lines.push(paint('red', insecureWarning), '');
  if (report.stopped) lines.push(paint(report.reachable ? 'yellow' : 'red', `Stopped: ${shown(report.stopped)}`), '');
  if (report.headline) lines.push(paint('red', shown(report.headline)), '');
  // Unreachable, every check is skipped for the one reason above: listing them would bury it.
  const operations = report.reachable ? new Set(report.checks.map((check) => check.operation)) : [];
  // Property failures get a section of their own below, with the shrunk body.
  const counterexampleChecks = new Set(report.counterexamples.map((example) => example.check));
  for (const operation of operations) {
    lines.push(paint('bold', operation));
    for (const check of report.checks.filter((candidate) => candidate.operation === operation)) {
      const found = check.outcome === 'failed' || check.outcome === 'accepted';
      // A cause many requests share: its findings on lines of their own, under the check's.
      const grouped = found && check.views?.some((view) => view.requests !== undefined);
      const message = grouped ? '' : shown(check.message);
      const where = paint('dim', `${grouped ? '' : ' '}[${check.severity}; ${check.spec}]`);
      const text = found ? `${message}${where}` : message;
      const dim = check.outcome === 'passed' || check.outcome === 'accepted';
      lines.push(`  ${mark(check, paint)} ${check.id}  ${dim ? paint('dim', text) : text}`);
      if (grouped) lines.push(...findingLines(check, paint));
      if (found) lines.push(`       ${paint('dim', idsText(check))}`);
      if (check.outcome === 'failed' && check.hint) lines.push(`       ${paint('dim', 'fix:')} ${shown(check.hint)}`);
      // An accepted check is known: its curl command stays in the JSON and HTML reports, out of the CI log.
      if (check.reproduce && check.outcome !== 'accepted' && !counterexampleChecks.has(check.id))
        lines.push(`       ${paint('dim', 'reproduce:')} ${shown(check.reproduce)}`);
    }
    const notes = report.notes.filter((note) => note.operation === operation);
    for (const note of notes) lines.push(`  ${paint('dim', 'NOTE')} ${shown(note.message)}`);
    lines.push('');
  }
  const accepted = new Set<string>(
    report.checks.filter((check) => check.outcome === 'accepted').map((check) => check.id),
  );
  for (const example of report.counterexamples.filter((candidate) => !accepted.has(candidate.check))) {
    lines.push(
      paint('bold', `Reproduce ${example.check}`),
      `  ${shown(example.finding)}`,
      `  ${shown(example.curl)}`,
      '',
    );
  }
  if (report.replay) lines.push(...replayLines(report.replay, paint), '');
  if (report.mock) lines.push(...mockLines(report.mock, paint), '');
  if (report.baseline)
    lines.push(paint(report.baseline.stale.length > 0 ? 'yellow' : 'dim', baselineText(report.baseline)), '');
  const limited = report.pacing?.rateLimited;
  if (limited && limited.retried + limited.beyondTimeout > 0) {
    const { retried, beyondTimeout, waitedMs } = limited;
    const beyond =
      beyondTimeout > 0 ? `; ${beyondTimeout} asked for a wait beyond --timeout (reported under *.transport)` : '';
    lines.push(
      paint(
        'dim',
        `429 Too Many Requests: ${retried} waited on and retried, ` +
          `sending paused ${(waitedMs / 1000).toFixed(1)} s in all${beyond}`,
      ),
      '',
    );
  }
  if (report.reachable) {
    // A gate only with --min-coverage: otherwise dim, as information beside the verdict, never as a finding.
    const gate = report.coverage.shortfalls.length > 0;
    const tone = gate ? 'red' : 'dim';
    lines.push(
      paint(tone, `${coverageHeading(report.coverage)}:`),
      ...coverageLines(report.coverage).map((line) =>
        paint(line.startsWith('below ') ? 'red' : 'dim', `  ${shown(line)}`),
      ),
      '',
    );
  }
  if (report.insecure) lines.push(paint('red', insecureWarning));
  lines.push(verdictLine(report, paint), '');
  return lines.join('\n');
}

/**
 * A failed check's findings, one per line, each shared cause's requests listed under it one per line: a cause met by
 * 42 probes is 20 short lines and a count, where one line of 2,000 characters buried it.
 */
function findingLines(check: CheckResult, paint: ReturnType<typeof painter>): string[] {
  // The views past the kept findings count the rest: moreFindings says how many, in findings, not lines.
  const views = (check.views ?? []).filter((view) => view.id !== undefined);
  const lines: string[] = [];
  for (const view of views.slice(0, shownFindings)) {
    lines.push(`       ${shown(view.text)}${view.requests ? ':' : ''}`);
    for (const request of view.requests ?? []) lines.push(`         ${paint('dim', '-')} ${shown(request)}`);
    if (view.moreRequests) lines.push(`         ${paint('dim', `and ${view.moreRequests} more`)}`);
  }
  if (check.moreFindings) lines.push(`       ${paint('dim', `and ${check.moreFindings} more findings`)}`);
  return lines;
}

/** The --replay block: its counts, each refused request with its curl, each skipped one with why. */
function replayLines(replay: NonNullable<Report['replay']>, paint: ReturnType<typeof painter>): string[] {
  const lines = [paint('bold', `Replay of ${shown(replay.source)}: ${replayCountsText(replay)}`)];
  for (const refusal of replay.refused)
    lines.push(
      `  ${paint('red', 'FAIL')} ${shown(refusal.message)}`,
      `       ${paint('dim', 'answer:')} ${shown(refusal.answer)}`,
      `       ${paint('dim', 'reproduce:')} ${shown(refusal.curl)}`,
    );
  for (const skip of replay.skipped)
    lines.push(`  ${paint('dim', 'SKIP')} ${shown(skip.request)}: ${shown(skip.reason)}`);
  return lines;
}

/** The last line: PASS, FAIL or NOTHING VERIFIED, with counts, target and time. */
function verdictLine(report: Report, paint: ReturnType<typeof painter>): string {
  const { warnings } = report.summary;
  const replay = report.replay ? `; replay: ${replayCountsText(report.replay)}` : '';
  const counts = `${countsText(report.summary)}, ${counted(report.notes.length, 'note')}${replay}`;
  const colour = report.verdict === 'PASS' ? (warnings > 0 ? 'yellow' : 'green') : 'red';
  return paint(colour, `${verdictText(report)}: ${counts}; ${shown(report.target)}; ${report.durationMs} ms`);
}

/**
 * The --compare-mock block: each of the mock's differences with both answers and what a frontend notices, those the
 * team accepted, then the deployment's own spec violations apart (its failed checks report them), then the closest
 * mock.
 */
function mockLines(mock: NonNullable<Report['mock']>, paint: ReturnType<typeof painter>): string[] {
  const nothing = nothingCompared(mock);
  if (nothing) return [paint('bold', nothing)];
  const beyond = mock.notCompared > 0 ? ` (${mock.notCompared} more not compared)` : '';
  const { drift, accepted, violations } = standingOf(mock.differences);
  const lines = [
    paint(
      'bold',
      `Compared with the mock (${shown(mock.command)}): ${mock.compared} requests${beyond}, ` +
        standingCounts(mock.differences),
    ),
  ];
  for (const difference of drift)
    lines.push(
      `  ${paint('yellow', 'DIFF')} ${shown(differenceLine(difference))}`,
      `       ${paint('dim', 'deployment:')} ${shown(difference.answers.deployment)}`,
      `       ${paint('dim', 'mock:')} ${shown(difference.answers.mock)}`,
      `       ${paint('dim', 'a frontend:')} ${difference.notice}`,
    );
  for (const difference of accepted) lines.push(`  ${paint('dim', 'ACCEPTED')} ${shown(differenceLine(difference))}`);
  if (violations.length > 0)
    lines.push(
      paint('bold', "The deployment's own spec violations (its failed checks above), not counted as the mock's:"),
    );
  for (const difference of violations) lines.push(`  ${paint('red', 'SPEC')} ${shown(differenceLine(difference))}`);
  const { suggested } = mock;
  lines.push(
    `${paint('bold', 'Closest mock:')} ${shown(suggested.command)} ` +
      `(${counted(suggested.differences.length, 'difference')} remain)`,
  );
  for (const difference of suggested.differences)
    lines.push(`  ${paint('dim', 'DIFF')} ${shown(differenceLine(difference))}`);
  return lines;
}
