import { baselineText } from '../../http/baseline.js';
import { counted } from '../../http/counted.js';
import { capped } from '../../http/excerpt.js';
import { escapeControlCharacters as visible } from '../../http/redaction.js';
import { coverageFigures, coverageHeading, type ReportCoverage } from './coverage.js';
import { countsText, idsText, nothingCompared, runFailures, verdictText, type Report } from './model.js';
import type { CheckResult } from '../judge/verdicts.js';
import { differenceLine, type MockDifference } from '../compare/differences.js';
import { standingCounts, standingOf } from '../compare/standing.js';

/**
 * Workflow-command escaping as GitHub's own toolkit does it (`@actions/core` command.ts): a message keeps to one line,
 * so no text from a deployment can start a command of its own; property values also escape `:` and `,`. Text from a
 * deployment has every control, separator and invisible character shown as an escape first (`visible`), so no line
 * break of any kind and no `##[` reaches the runner, and the log shows what was sent.
 */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * One `::error` (error-level) or `::warning` (warning-level) annotation per failed check, its title the check id; one
 * `::error` per replayed request the deployment refused; and one per other reason the run fails (nothing verified, a
 * coverage under --min-coverage, the mock's drift with --fail-on-drift), titled as JUnit's `run.*` testcase: a job
 * that fails always says why where the pull request shows it.
 */
export function githubAnnotations(report: Report): string {
  const lines = report.checks
    .filter((check) => check.outcome === 'failed')
    .map((check) => {
      const text = [
        visible(capped(check.message)),
        `spec: ${check.spec}`,
        idsText(check),
        ...(check.hint ? [`fix: ${visible(check.hint)}`] : []),
        ...(check.reproduce ? [`reproduce: ${visible(check.reproduce)}`] : []),
      ].join('\n');
      return `::${check.severity} title=${escapeProperty(`${check.id} (${check.operation})`)}::${escapeData(text)}`;
    });
  for (const refusal of report.replay?.refused ?? [])
    lines.push(
      `::error title=run.replay::${escapeData(
        `${visible(refusal.message)}\nanswer: ${visible(refusal.answer)}\nreproduce: ${visible(refusal.curl)}`,
      )}`,
    );
  for (const failure of runFailures(report))
    lines.push(`::error title=${failure.id}::${escapeData(failure.details.map((line) => visible(line)).join('\n'))}`);
  // Stale ids fail nothing; a notice where the pull request shows it is how the baseline gets shrunk.
  if (report.baseline && report.baseline.stale.length > 0)
    lines.push(`::notice title=run.baseline::${escapeData(baselineText(report.baseline))}`);
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * Text from a deployment as inline Markdown, in a table cell or after evalkit's own words on a line: nothing in it
 * can end the line (every control and separator, CR alone and U+2028 included, is shown as an escape), start a block
 * (a leading list or heading marker is escaped), format or link (Markdown punctuation escaped), or be HTML (GitHub
 * renders HTML in summaries: `<` and `&` become entities, comments and `<details>` included); an `@name` gets a
 * zero-width space after the `@`, so it mentions nobody.
 */
function inline(text: string, max = 300): string {
  // Markdown first: the entities' own characters must not be escaped again.
  return visible(capped(text, max))
    .trim()
    .replace(/[\\`*_[\]|#~]/g, (char) => `\\${char}`)
    .replace(/^([-+=])/, '\\$1')
    .replace(/^(\d+)([.)])/, '$1\\$2')
    .replace(/[&<>]/g, (char) => entities[char] as string)
    .replace(/@(?=\w)/g, '@&#8203;');
}

const marks: Record<CheckResult['outcome'], string> = {
  passed: 'PASS',
  failed: 'FAIL',
  accepted: 'ACCEPTED',
  skipped: 'SKIP',
};

function row(check: CheckResult): string {
  const mark = check.outcome === 'failed' && check.severity === 'warning' ? 'WARN' : marks[check.outcome];
  const found = check.outcome === 'failed' || check.outcome === 'accepted';
  const message = found ? check.message : `skipped: ${check.message}`;
  // The fix and the ids after the message, capped apart, so the message's cap never cuts them off.
  const fix = check.outcome === 'failed' && check.hint ? ` (fix: ${inline(check.hint)})` : '';
  const ids = found ? ` (${inline(idsText(check), 1000)})` : '';
  return `| ${mark} | \`${check.id}\` | ${inline(message)}${fix}${ids} | ${inline(check.spec)} |`;
}

/**
 * The coverage as a short table after a line saying what it is: information unless a minimum was missed, whose
 * shortfalls then come first, in bold. One row per kind: what was seen of what is documented, and what this run did
 * not see. No HTML: the summary holds none (a `<details>` of evalkit's would teach readers to trust one).
 */
function coverageTable(coverage: ReportCoverage): string[] {
  const gate = coverage.shortfalls.length > 0;
  return [
    gate ? `**${inline(coverageHeading(coverage))}**` : `_${inline(coverageHeading(coverage))}_`,
    '',
    ...coverage.shortfalls.flatMap((shortfall) => [`**below --min-coverage: ${inline(shortfall)}**`, '']),
    '| coverage | seen | not in this run |',
    '|---|---|---|',
    ...Object.values(coverageFigures(coverage)).map(
      ({ label, seen, of, never }) => `| ${label} | ${seen}/${of} | ${inline(never.join(', ')) || '—'} |`,
    ),
  ];
}

/** The step summary: verdict, counts, then every failed and skipped check in one table. */
export function githubStepSummary(report: Report): string {
  const listed = report.checks.filter((check) => check.outcome !== 'passed');
  const lines = [
    `## evalkit ${report.command}: ${verdictText(report)}`,
    '',
    ...(report.headline ? [inline(report.headline), ''] : []),
    ...(report.insecure ? ['--insecure: certificates were not verified', ''] : []),
    `${inline(report.target)}: ${countsText(report.summary)}, ${report.requests} requests in ${report.durationMs} ms`,
    '',
  ];
  if (report.stopped) lines.push(`Stopped: ${inline(report.stopped)}`, '');
  if (listed.length > 0)
    lines.push('| | check | finding or reason | spec |', '|---|---|---|---|', ...listed.map(row), '');
  const refused = report.replay?.refused ?? [];
  if (refused.length > 0)
    lines.push(
      `Replay: ${refused.length} of your app's requests refused`,
      '',
      ...refused.map((r) => `- ${inline(r.message)}: ${inline(r.answer)}`),
      '',
    );
  if (report.mock) lines.push(...mockSummary(report.mock), '');
  if (report.baseline) lines.push(inline(baselineText(report.baseline), 2000), '');
  if (report.reachable) lines.push(...coverageTable(report.coverage), '');
  return `${lines.join('\n')}\n`;
}

/**
 * The --compare-mock part of the summary: each of the mock's differences and what a frontend notices, those
 * accepted, the deployment's own spec violations apart, then the closest mock.
 */
function mockSummary(mock: NonNullable<Report['mock']>): string[] {
  const nothing = nothingCompared(mock);
  if (nothing) return [inline(nothing)];
  const { drift, accepted, violations } = standingOf(mock.differences);
  const listed = (title: string, differences: readonly MockDifference[]) =>
    differences.length > 0 ? [title, '', ...differences.map((one) => `- ${inline(differenceLine(one))}`), ''] : [];
  return [
    `Compared with the mock (${inline(mock.command)}): ${standingCounts(mock.differences)}`,
    '',
    ...drift.map((difference) => `- ${inline(differenceLine(difference))}: ${difference.notice}`),
    '',
    ...listed('Accepted (listed in the ignore file):', accepted),
    ...listed("The deployment's own spec violations (see its failed checks), not counted as the mock's:", violations),
    `Closest mock: ${inline(mock.suggested.command)} ` +
      `(${counted(mock.suggested.differences.length, 'difference')} remain)`,
  ];
}
