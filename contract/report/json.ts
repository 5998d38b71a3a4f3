import type { Report } from './model.js';

/** The --report-json document: the fixed `summary` and `checks` shape first, then the rest of the report. */
export function jsonReport(report: Report): string {
  const checks = report.checks.map(
    ({ id, operation, severity, outcome, message, spec, findings, hint, reproduce, views, ids, unlistedIds }) => ({
      id,
      operation,
      severity,
      outcome,
      message,
      spec,
      findings,
      // The id of each finding, in `findings`' order; the line counting findings not kept has none.
      ...(ids ? { findingIds: (views ?? []).flatMap((view) => (view.id ? [view.id] : [])), ids } : {}),
      ...(unlistedIds ? { unlistedIds } : {}),
      ...(hint ? { hint } : {}),
      ...(reproduce ? { reproduce } : {}),
    }),
  );
  const {
    summary,
    verdict,
    headline,
    strict,
    insecure,
    command,
    target,
    reachable,
    stopped,
    notes,
    counterexamples,
    requests,
    pacing,
    replay,
    coverage,
    mock,
    baseline,
    durationMs,
  } = report;
  // `pacing` is absent from the proxy's report, and then from its JSON.
  const document = {
    summary,
    checks,
    verdict,
    ...(headline ? { headline } : {}),
    strict,
    insecure,
    command,
    target,
    reachable,
    ...(stopped ? { stopped } : {}),
    notes,
    counterexamples,
    requests,
    ...(pacing ? { pacing } : {}),
    ...(replay ? { replay } : {}),
    coverage,
    ...(mock ? { mock } : {}),
    ...(baseline ? { baseline } : {}),
    durationMs,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
