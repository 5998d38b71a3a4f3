import { baselineText } from '../../http/baseline.js';
import { escapeControlCharacters as visible } from '../../http/redaction.js';
import { failsTheRun, idsText, mockLines, runFailures, type Report } from './model.js';
import type { CheckResult } from '../judge/verdicts.js';

/**
 * Text as XML character data or an attribute value. Invisible characters are shown as escapes first (as in every
 * report; tab and newline stay), and whatever XML 1.0 still forbids (U+FFFE, U+FFFF) becomes U+FFFD, so the file
 * parses whatever a deployment sent; then markup characters become entities, so no text can open an element, close
 * an attribute or end a CDATA section (`]]>`).
 */
export function escapeXml(text: string): string {
  return visible(text, 'lines')
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function testcase(check: CheckResult, strict: boolean): string {
  const open = `    <testcase name="${escapeXml(check.id)}" classname="${escapeXml(check.operation)}">`;
  if (check.outcome === 'passed') return `${open}</testcase>`;
  if (check.outcome === 'skipped') return `${open}<skipped message="${escapeXml(check.message)}"/></testcase>`;
  // Each part may quote the deployment (a finding, a message): its line breaks are shown too, so only evalkit's own
  // break the text into lines and no server text starts one.
  const text = escapeXml(
    [
      `${check.severity}: ${check.message}`,
      `spec: ${check.spec}`,
      idsText(check),
      ...(check.hint ? [`fix: ${check.hint}`] : []),
      ...(check.reproduce ? [`reproduce: ${check.reproduce}`] : []),
      ...(check.views ?? []).map(({ id, accepted }, index) => {
        const finding = check.findings[index] ?? '';
        return id ? `${accepted ? 'accepted: ' : ''}${finding} [${id}]` : finding;
      }),
    ]
      .map((part) => visible(part))
      .join('\n'),
  );
  if (check.outcome === 'accepted') {
    // Every finding accepted by the --ignore file: listed, never a failure.
    const accepted = `<properties><property name="accepted" value="${escapeXml(idsText(check))}"/></properties>`;
    return `${open}${accepted}<system-out>${text}</system-out></testcase>`;
  }
  if (failsTheRun(check, strict)) {
    const failure = `<failure type="${check.severity}" message="${escapeXml(check.message)}">${text}</failure>`;
    return `${open}${failure}</testcase>`;
  }
  // A warning that does not fail the exit code: shown, never red.
  const warning = `<properties><property name="warning" value="${escapeXml(check.message)}"/></properties>`;
  return `${open}${warning}<system-out>${text}</system-out></testcase>`;
}

function properties(report: Report): string[] {
  const entries = [
    ...(report.insecure ? [['insecure', 'certificates were NOT verified (--insecure)']] : []),
    ['verdict', report.verdict],
    ...(report.headline ? [['headline', report.headline]] : []),
  ];
  return [
    '    <properties>',
    ...entries.map(
      ([name, value]) => `      <property name="${escapeXml(name as string)}" value="${escapeXml(value as string)}"/>`,
    ),
    '    </properties>',
  ];
}

/** A suite of one failed testcase about the run as a whole; `details`, the failure's text, defaults to the reason. */
function failedRun(name: string, reason: string, details = reason): string {
  return (
    '  <testsuite name="run" tests="1" failures="1" errors="0" skipped="0">\n' +
    `    <testcase name="${name}" classname="run">` +
    `<failure type="error" message="${escapeXml(reason)}">${escapeXml(details)}</failure></testcase>\n  </testsuite>`
  );
}

/**
 * One testsuite per operation, one testcase per check. Failures are exactly what fails the exit code: failed
 * warnings are failures with --strict only, otherwise a `warning` property and system-out. A run that verified
 * nothing adds a failed `run.verified` testcase, one under its --min-coverage a failed `run.coverage`, and one whose
 * replayed requests were refused a failed `run.replay`, since all three exit 1 too.
 */
export function junitReport(report: Report): string {
  const { strict } = report;
  const operations = [...new Set(report.checks.map((check) => check.operation))];
  const suites = operations.map((operation) => {
    const checks = report.checks.filter((check) => check.operation === operation);
    const failures = checks.filter((check) => failsTheRun(check, strict)).length;
    const skipped = checks.filter((check) => check.outcome === 'skipped').length;
    return [
      `  <testsuite name="${escapeXml(operation)}" tests="${checks.length}" failures="${failures}" errors="0" ` +
        `skipped="${skipped}">`,
      ...properties(report),
      ...checks.map((check) => testcase(check, strict)),
      '  </testsuite>',
    ].join('\n');
  });
  const failures = runFailures(report);
  for (const failure of failures.filter((candidate) => candidate.id !== 'run.mock'))
    suites.push(failedRun(failure.id, failure.reason, failure.details.join('\n')));
  const refused = report.replay?.refused ?? [];
  if (refused.length > 0)
    suites.push(
      failedRun(
        'run.replay',
        refused.map((refusal) => refusal.message).join('; '),
        refused
          .map((refusal) => `${refusal.message}\nanswer: ${refusal.answer}\nreproduce: ${refusal.curl}`)
          .join('\n'),
      ),
    );
  const drift = failures.some((failure) => failure.id === 'run.mock');
  if (report.mock) suites.push(mockSuite(report.mock, drift));
  if (report.baseline) suites.push(passedRun('run.baseline', baselineLines(report.baseline).join('\n')));
  const extra = failures.length + (refused.length > 0 ? 1 : 0);
  const failed = report.checks.filter((check) => failsTheRun(check, strict)).length + extra;
  const total = report.checks.length + extra + (report.mock && !drift ? 1 : 0) + (report.baseline ? 1 : 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="evalkit ${report.command} ${escapeXml(report.target)}" tests="${total}" ` +
      `failures="${failed}" errors="0" skipped="${report.summary.skipped}" ` +
      `time="${(report.durationMs / 1000).toFixed(3)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

/** A suite of one testcase about the run as a whole that fails nothing: `output` as its system-out. */
function passedRun(name: string, output: string): string {
  return (
    '  <testsuite name="run" tests="1" failures="0" errors="0" skipped="0">\n' +
    `    <testcase name="${name}" classname="run"><system-out>${escapeXml(output)}</system-out>` +
    '</testcase>\n  </testsuite>'
  );
}

/** The --ignore file's ids in lines: the count, then every accepted and every stale id, one a line. */
function baselineLines(baseline: NonNullable<Report['baseline']>): string[] {
  return [
    baselineText(baseline),
    ...baseline.accepted.map((id) => `accepted: ${id}`),
    ...baseline.stale.map((id) => `stale: ${id}`),
  ];
}

/**
 * The --compare-mock testcase, `run.mock`: a failure with --fail-on-drift, otherwise the differences as output. A
 * difference holds the deployment's text (a field's name, a state): its line breaks are shown too, as escapeXml keeps
 * only evalkit's own, so it cannot start a line of its own.
 */
function mockSuite(mock: NonNullable<Report['mock']>, drift: boolean): string {
  const lines = mockLines(mock).map((line) => visible(line));
  if (drift) return failedRun('run.mock', lines[0] as string, lines.join('\n'));
  return passedRun('run.mock', lines.join('\n'));
}
