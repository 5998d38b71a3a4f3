import type { Report } from '../run.js';

/** The --report-json document: the fixed `summary` and `checks` shape first, then the rest of the report. */
export function jsonReport(report: Report): string {
  const checks = report.checks.map(({ id, operation, severity, outcome, message, spec, findings, reproduce }) => ({ id, operation, severity, outcome, message, spec, findings, ...(reproduce ? { reproduce } : {}) }));
  const { summary, target, reachable, stopped, notes, counterexamples, requests, pacing, durationMs } = report;
  return `${JSON.stringify({ summary, checks, target, reachable, ...(stopped ? { stopped } : {}), notes, counterexamples, requests, pacing, durationMs }, null, 2)}\n`;
}
