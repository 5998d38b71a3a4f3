import { capped } from '../../http/excerpt.js';
import { countsText, type Report } from './model.js';
import type { CheckResult } from '../judge/verdicts.js';

/**
 * Workflow-command escaping as GitHub's own toolkit does it (`@actions/core` command.ts): a message keeps to one line,
 * so no text from a deployment can start a command of its own; property values also escape `:` and `,`.
 */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One `::error` (error-level) or `::warning` (warning-level) annotation per failed check, its title the check id. */
export function githubAnnotations(report: Report): string {
  const lines = report.checks
    .filter((check) => check.outcome === 'failed')
    .map((check) => {
      const text = [
        capped(check.message),
        `spec: ${check.spec}`,
        ...(check.reproduce ? [`reproduce: ${check.reproduce}`] : []),
      ].join('\n');
      return `::${check.severity} title=${escapeProperty(`${check.id} (${check.operation})`)}::${escapeData(text)}`;
    });
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/**
 * Markdown table cells: GitHub renders HTML in summaries, so text from a deployment is entity-escaped, and kept to one
 * line.
 */
function cell(text: string): string {
  const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
  // Markdown first: the entities' own characters must not be escaped again.
  return capped(text, 300)
    .replace(/[\\`*_[\]|#~]/g, (char) => `\\${char}`)
    .replace(/[&<>]/g, (char) => entities[char] as string)
    .replace(/\s*\n\s*/g, ' ');
}

function row(check: CheckResult): string {
  const mark = check.outcome === 'failed' ? (check.severity === 'error' ? 'FAIL' : 'WARN') : 'SKIP';
  const message = check.outcome === 'failed' ? check.message : `skipped: ${check.message}`;
  return `| ${mark} | \`${check.id}\` | ${cell(message)} | ${cell(check.spec)} |`;
}

/** The step summary: verdict, counts, then every failed and skipped check in one table. */
export function githubStepSummary(report: Report): string {
  const listed = report.checks.filter((check) => check.outcome !== 'passed');
  const lines = [
    `## evalkit contract: ${report.verdict}`,
    '',
    ...(report.headline ? [cell(report.headline), ''] : []),
    ...(report.insecure ? ['--insecure: certificates were not verified', ''] : []),
    `${cell(report.target)}: ${countsText(report.summary)}, ${report.requests} requests in ${report.durationMs} ms`,
    '',
  ];
  if (report.stopped) lines.push(`Stopped: ${cell(report.stopped)}`, '');
  if (listed.length > 0)
    lines.push('| | check | finding or reason | spec |', '|---|---|---|---|', ...listed.map(row), '');
  return `${lines.join('\n')}\n`;
}
