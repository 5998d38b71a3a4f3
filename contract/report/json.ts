import type { Report } from '../run.js';

/** The --report-json document: the fixed `summary` and `checks` shape first, then the rest of the report. */
export function jsonReport(report: Report): string {
  const checks = report.checks.map(({ id, operation, severity, outcome, message, spec, findings, reproduce }) => ({ id, operation, severity, outcome, message, spec, findings, ...(reproduce ? { reproduce } : {}) }));
  const { summary, verdict, headline, strict, insecure, target, reachable, stopped, notes, counterexamples, requests, durationMs } = report;
  return `${JSON.stringify({ summary, checks, verdict, ...(headline ? { headline } : {}), strict, insecure, target, reachable, ...(stopped ? { stopped } : {}), notes, counterexamples, requests, durationMs }, null, 2)}\n`;
}
