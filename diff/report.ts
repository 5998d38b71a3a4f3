import { operationIds, operationLabel } from '../api/operations.js';
import { escapeControlCharacters as shown } from '../http/redaction.js';
import type { Traffic } from '../http/traffic.js';
import { fieldOf, type Change } from './changes.js';
import { isWeighed, weigh, type Weight } from './weigh.js';

/** One change as output shows it. */
interface ReportedChange {
  operation: string;
  part: Change['part'];
  status?: string;
  field: string;
  change: string;
  breaking: boolean;
  /** With --traffic, for a breaking change and one that drops what a request sends (isWeighed). */
  traffic?: Weight;
}

export interface DiffReport {
  old: string;
  new: string;
  breaking: number;
  changes: ReportedChange[];
}

/** The changes, breaking first within each operation, in the operations' order, weighed by traffic when given. */
export function diffReport(files: { old: string; new: string }, changes: Change[], traffic?: Traffic): DiffReport {
  const ordered = operationIds.flatMap((id) => {
    const mine = changes.filter((change) => change.operation === id);
    return [...mine.filter((change) => change.breaking), ...mine.filter((change) => !change.breaking)];
  });
  return {
    ...files,
    breaking: changes.filter((change) => change.breaking).length,
    changes: ordered.map((change) => {
      const weight = traffic && isWeighed(change) ? weigh(change, traffic) : undefined;
      return {
        operation: operationLabel(change.operation),
        part: change.part,
        ...(change.status !== undefined ? { status: change.status } : {}),
        field: fieldOf(change),
        change: change.change,
        breaking: change.breaking,
        ...(weight ? { traffic: weight } : {}),
      };
    }),
  };
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
      const where = change.part === 'response' ? `response ${change.status ?? ''}`.trim() : 'request';
      const weight = change.traffic ? ` (${weightText(change.traffic)})` : '';
      lines.push(
        `  ${change.breaking ? 'BREAKING' : 'ok      '}  ${where}  ` +
          `${shown(change.field)}: ${shown(change.change)}${weight}`,
      );
    }
    lines.push('');
  }
  const others = report.changes.length - report.breaking;
  lines.push(
    report.breaking > 0
      ? `${report.breaking} breaking change${report.breaking === 1 ? '' : 's'}, ${others} other: ` +
          'a client written against the old document breaks on the new one'
      : report.changes.length > 0
        ? `no breaking change (${report.changes.length} other)`
        : 'no change to the two operations',
    '',
  );
  return lines.join('\n');
}
