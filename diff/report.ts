import { operationIds, operationLabel } from '../api/operations.js';
import { escapeControlCharacters as shown } from '../http/redaction.js';
import { baselineOf, baselineText, type Baseline } from '../http/baseline.js';
import { stableId } from '../http/stable-id.js';
import type { Traffic } from '../http/traffic.js';
import { fieldOf, type Change } from './changes.js';
import { isWeighed, weigh, type Weight } from './weigh.js';

/** One change as output shows it. */
interface ReportedChange {
  /** Stable across runs: a hash of the operation, where and what (an `--ignore FILE` lists it to accept it). */
  id: string;
  operation: string;
  part: Change['part'];
  status?: string;
  field: string;
  change: string;
  breaking: boolean;
  /** Listed in the `--ignore` file: still shown, no longer failing the run. */
  accepted: boolean;
  /** With --traffic, for a breaking change and one that drops what a request sends (isWeighed). */
  traffic?: Weight;
}

export interface DiffReport {
  old: string;
  new: string;
  /** Breaking changes not accepted: what fails the run. */
  breaking: number;
  changes: ReportedChange[];
  /** With --ignore: the file's ids found among the changes, and those no longer found (stale), failing nothing. */
  baseline?: Baseline;
}

/** The changes, breaking first within each operation, in the operations' order, weighed by traffic when given. */
export function diffReport(
  files: { old: string; new: string },
  changes: Change[],
  traffic?: Traffic,
  accepted?: ReadonlySet<string>,
): DiffReport {
  const ordered = operationIds.flatMap((id) => {
    const mine = changes.filter((change) => change.operation === id);
    return [...mine.filter((change) => change.breaking), ...mine.filter((change) => !change.breaking)];
  });
  const reported = ordered.map((change): ReportedChange => {
    const weight = traffic && isWeighed(change) ? weigh(change, traffic) : undefined;
    const operation = operationLabel(change.operation);
    const field = fieldOf(change);
    const id = stableId([operation, change.part, change.status ?? '', field, change.change]);
    return {
      id,
      operation,
      part: change.part,
      ...(change.status !== undefined ? { status: change.status } : {}),
      field,
      change: change.change,
      breaking: change.breaking,
      accepted: accepted?.has(id) ?? false,
      ...(weight ? { traffic: weight } : {}),
    };
  });
  return {
    ...files,
    breaking: reported.filter((change) => change.breaking && !change.accepted).length,
    changes: reported,
    ...(accepted
      ? {
          baseline: baselineOf(
            accepted,
            reported.map(({ id }) => id),
          ),
        }
      : {}),
  };
}

/** Where a change is, in a few words: `request`, `response 200`. */
function whereOf(change: ReportedChange): string {
  return change.part === 'response' ? `response ${change.status ?? ''}`.trim() : 'request';
}

/** Its tag: BREAKING, accepted (listed in --ignore), or ok. */
function tagOf(change: ReportedChange): string {
  return change.breaking ? (change.accepted ? 'accepted' : 'BREAKING') : 'ok';
}

/** The closing sentence every format ends with. */
function summaryOf(report: DiffReport): string {
  const accepted = report.changes.filter((change) => change.accepted).length;
  const others = report.changes.length - report.breaking - accepted;
  const acceptedText = accepted > 0 ? `, ${accepted} accepted` : '';
  if (report.breaking > 0)
    return (
      `${report.breaking} breaking change${report.breaking === 1 ? '' : 's'}${acceptedText}, ${others} other: ` +
      'a client written against the old document breaks on the new one'
    );
  return report.changes.length > 0
    ? `no breaking change (${report.changes.length - accepted} other${acceptedText})`
    : 'no change to the two operations';
}

/** A table for a pull-request comment: breaking changes first, each with its id for an ignore file. */
export function markdownDiff(report: DiffReport): string {
  const cell = (text: string) => shown(text).replace(/\|/g, '\\|').replace(/`/g, "'");
  const rank = (change: ReportedChange) => (change.breaking && !change.accepted ? 0 : change.accepted ? 1 : 2);
  const rows = [...report.changes]
    .sort((a, b) => rank(a) - rank(b))
    .map(
      (change) =>
        `| ${tagOf(change)} | ${cell(change.operation)} | ${whereOf(change)} | \`${cell(change.field)}\` | ` +
        `${cell(change.change)} | \`${change.id}\` |`,
    );
  const table =
    rows.length > 0 ? ['| | Operation | Where | Field | Change | Id |', '|---|---|---|---|---|---|', ...rows, ''] : [];
  const baseline = report.baseline ? [cell(baselineText(report.baseline)), ''] : [];
  return [`### evalkit diff: ${cell(summaryOf(report))}`, '', ...table, ...baseline].join('\n');
}

/**
 * GitHub Actions annotations on the new document: `::error` for a breaking change, `::notice` for the rest (an
 * accepted one says so), one line each, the workflow command's own characters escaped.
 */
export function githubDiff(report: DiffReport): string {
  const escape = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const property = (text: string) => escape(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
  const lines = report.changes.map((change) => {
    const level = change.breaking && !change.accepted ? 'error' : 'notice';
    const title = property(`${tagOf(change)}: ${change.operation}`);
    const message = escape(`${whereOf(change)} ${change.field}: ${change.change} [${change.id}]`);
    return `::${level} file=${property(report.new)},title=${title}::${message}`;
  });
  const baseline = report.baseline
    ? [`::notice title=evalkit diff --ignore::${escape(baselineText(report.baseline))}`]
    : [];
  return [...lines, ...baseline, `::notice title=evalkit diff::${escape(summaryOf(report))}`, ''].join('\n');
}

function weightText({ touched, of, what }: Weight): string {
  if (of === 0) return `no recorded ${what} to weigh it by`;
  if (touched === 0) return `touches none of ${of} recorded ${what}`;
  return `touches ${touched} of ${of} recorded ${what}`;
}

/** The terminal report: changes grouped by operation, breaking first, then one summary line. */
export function terminalDiff(report: DiffReport): string {
  const lines = [`evalkit diff ${shown(report.old)} → ${shown(report.new)}`, ''];
  for (const operation of new Set(report.changes.map((change) => change.operation))) {
    lines.push(operation);
    for (const change of report.changes.filter((candidate) => candidate.operation === operation)) {
      const weight = change.traffic ? ` (${weightText(change.traffic)})` : '';
      const id = change.breaking ? ` [${change.id}]` : '';
      lines.push(
        `  ${tagOf(change).padEnd(8)}  ${whereOf(change)}  ` +
          `${shown(change.field)}: ${shown(change.change)}${weight}${id}`,
      );
    }
    lines.push('');
  }
  if (report.baseline) lines.push(shown(baselineText(report.baseline)));
  lines.push(summaryOf(report), '');
  return lines.join('\n');
}
