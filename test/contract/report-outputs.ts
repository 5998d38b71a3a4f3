import {
  githubAnnotations,
  githubStepSummary,
  htmlReport,
  jsonReport,
  junitReport,
  terminalReport,
  type Report,
} from '../../contract/index.js';

/** Every format a report is written in, by name: what a leak or forgery test searches whole. */
export function everyReportFormat(report: Report): Record<string, string> {
  return {
    terminal: terminalReport(report, { colour: false }),
    json: jsonReport(report),
    junit: junitReport(report),
    html: htmlReport(report),
    annotations: githubAnnotations(report),
    summary: githubStepSummary(report),
  };
}
