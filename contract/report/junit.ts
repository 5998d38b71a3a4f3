import type { Report } from '../run.js';
import type { CheckResult } from '../verdicts.js';

/** XML 1.0 forbids most control characters even escaped; a deployment's text may carry any of them. */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function testcase(check: CheckResult): string {
  const open = `    <testcase name="${escapeXml(check.id)}" classname="${escapeXml(check.operation)}">`;
  if (check.outcome === 'passed') return `${open}</testcase>`;
  if (check.outcome === 'skipped') return `${open}<skipped message="${escapeXml(check.message)}"/></testcase>`;
  const text = [`${check.severity}: ${check.message}`, `spec: ${check.spec}`, ...(check.reproduce ? [`reproduce: ${check.reproduce}`] : []), ...check.findings].join('\n');
  return `${open}<failure type="${check.severity}" message="${escapeXml(check.message)}">${escapeXml(text)}</failure></testcase>`;
}

/** One testsuite per operation, one testcase per check; failed warnings are failures of type "warning". */
export function junitReport(report: Report): string {
  const operations = [...new Set(report.checks.map((check) => check.operation))];
  const suites = operations.map((operation) => {
    const checks = report.checks.filter((check) => check.operation === operation);
    const failures = checks.filter((check) => check.outcome === 'failed').length;
    const skipped = checks.filter((check) => check.outcome === 'skipped').length;
    return [
      `  <testsuite name="${escapeXml(operation)}" tests="${checks.length}" failures="${failures}" errors="0" skipped="${skipped}">`,
      ...checks.map(testcase),
      '  </testsuite>',
    ].join('\n');
  });
  const { summary } = report;
  const total = report.checks.length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="evalkit contract ${escapeXml(report.target)}" tests="${total}" failures="${summary.failed}" errors="0" skipped="${summary.skipped}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
