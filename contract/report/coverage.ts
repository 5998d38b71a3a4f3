import type { CoverageReport } from '../judge/coverage.js';

/** What a minimum can be set on: each a share of what the schemas and the service document. */
const coverageKinds = {
  operations: 'operations',
  fields: 'response fields',
  states: 'states',
} as const;

type CoverageKind = keyof typeof coverageKinds;

/** The least coverage a run must reach, in percent, per kind: `--min-coverage fields=90,states=100`. */
export type CoverageMinimum = Partial<Record<CoverageKind, number>>;

/** The coverage of a report: what the run exercised, the minimum it was held to, and each minimum it missed. */
export interface ReportCoverage extends CoverageReport {
  minimum?: CoverageMinimum;
  /** Each minimum missed, in words: `response fields 41/43 (95%) under the minimum 100%`. */
  shortfalls: string[];
}

function isCoverageKind(kind: string): kind is CoverageKind {
  return Object.hasOwn(coverageKinds, kind);
}

const minimumForm = `KIND=PERCENT[,KIND=PERCENT], KIND one of ${Object.keys(coverageKinds).join(', ')}`;

/** `fields=90,states=100` read, or why it cannot be: the one line a usage error prints. */
export function parseMinimumCoverage(text: string): CoverageMinimum | { problem: string } {
  const minimum: CoverageMinimum = {};
  for (const part of text.split(',')) {
    const [kind = '', percent = '', ...rest] = part.trim().split('=');
    const value = Number(percent);
    if (!isCoverageKind(kind) || rest.length > 0 || percent.trim() === '' || !(value >= 0 && value <= 100))
      return { problem: `--min-coverage must be ${minimumForm}, with PERCENT from 0 to 100; got '${text}'` };
    minimum[kind] = value;
  }
  return minimum;
}

/** Seen and documented, per kind. */
function shares(coverage: CoverageReport): Record<CoverageKind, { seen: number; of: number }> {
  return {
    operations: { seen: coverage.operations.exercised, of: coverage.operations.documented },
    fields: { seen: coverage.responseFields.seen, of: coverage.responseFields.documented },
    states: { seen: coverage.states.seen, of: coverage.states.known },
  };
}

function percent(seen: number, of: number): number {
  return of === 0 ? 100 : Math.floor((seen / of) * 1000) / 10;
}

/** The report's coverage: what the run exercised, held to the minimum when one is given. */
export function reportCoverage(coverage: CoverageReport, minimum?: CoverageMinimum): ReportCoverage {
  const figures = shares(coverage);
  const shortfalls = Object.entries(minimum ?? {}).flatMap(([kind, least]) => {
    const { seen, of } = figures[kind as CoverageKind];
    const share = percent(seen, of);
    return share < least
      ? [`${coverageKinds[kind as CoverageKind]} ${seen}/${of} (${share}%) under the minimum ${least}%`]
      : [];
  });
  return { ...coverage, ...(minimum ? { minimum } : {}), shortfalls };
}

/** `200 ×40 404 ×3`. */
function statusesText(coverage: CoverageReport): string {
  const all = new Map<number, number>();
  for (const operation of coverage.operations.byOperation)
    for (const { status, count } of operation.statuses) all.set(status, (all.get(status) ?? 0) + count);
  const text = [...all]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status} ×${count}`)
    .join(' ');
  return text || 'none';
}

/** A list, its first few named and the rest counted. */
function firstFew(items: readonly string[], shown = 6): string {
  const more = items.length > shown ? `, … ${items.length - shown} more` : '';
  return `${items.slice(0, shown).join(', ')}${more}`;
}

/**
 * The coverage in a few lines of plain text, for the terminal and the GitHub summary: operations and statuses,
 * response fields, states, request fields, and each minimum missed.
 */
export function coverageLines(coverage: ReportCoverage): string[] {
  const { operations, responseFields: fields, states, requestFields: requests } = coverage;
  const never = (unseen: readonly string[]) => (unseen.length > 0 ? `; never seen: ${firstFew(unseen)}` : '');
  const varied = requests.varied.length > 0 ? `: ${requests.varied.join(', ')}` : '';
  return [
    `operations ${operations.exercised}/${operations.documented}, statuses ${statusesText(coverage)}`,
    `response fields ${fields.seen}/${fields.documented}${never(fields.unseen)}`,
    `states ${states.seen}/${states.known}${never(states.unseen)}`,
    `request fields varied ${requests.varied.length}/${requests.fields.length} over ${requests.requests} ` +
      `valid create requests${varied}`,
    ...coverage.shortfalls.map((shortfall) => `below --min-coverage: ${shortfall}`),
  ];
}
