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

/** One figure of the coverage: how much of what is documented was seen, and what never was. */
interface CoverageFigure {
  /** `response fields`: the words every writer uses. */
  label: string;
  seen: number;
  of: number;
  never: string[];
}

/**
 * The coverage's figures, in the order every writer shows them: one per kind a minimum can be set on (operations,
 * response fields, states), then the create request's fields that varied.
 */
export function coverageFigures(
  coverage: CoverageReport,
): Record<CoverageKind, CoverageFigure> & { requestFields: CoverageFigure } {
  const { operations, responseFields: fields, states, requestFields: requests } = coverage;
  const idle = operations.byOperation.filter((entry) => entry.statuses.length === 0).map((entry) => entry.operation);
  const unvaried = requests.fields.filter((field) => !field.varied).map((field) => field.field);
  return {
    operations: { label: coverageKinds.operations, seen: operations.exercised, of: operations.documented, never: idle },
    fields: { label: coverageKinds.fields, seen: fields.seen, of: fields.documented, never: fields.unseen },
    states: { label: coverageKinds.states, seen: states.seen, of: states.known, never: states.unseen },
    requestFields: {
      label: 'request fields varied',
      seen: requests.varied.length,
      of: requests.fields.length,
      never: unvaried,
    },
  };
}

/** `response fields 41/43`. */
export function figureText({ label, seen, of }: CoverageFigure): string {
  return `${label} ${seen}/${of}`;
}

function percent(seen: number, of: number): number {
  return of === 0 ? 100 : Math.floor((seen / of) * 1000) / 10;
}

/** The report's coverage: what the run exercised, held to the minimum when one is given. */
export function reportCoverage(coverage: CoverageReport, minimum?: CoverageMinimum): ReportCoverage {
  const figures = coverageFigures(coverage);
  const shortfalls = Object.entries(minimum ?? {}).flatMap(([kind, least]) => {
    const figure = figures[kind as CoverageKind];
    const share = percent(figure.seen, figure.of);
    return share < least ? [`${figureText(figure)} (${share}%) under the minimum ${least}%`] : [];
  });
  return { ...coverage, ...(minimum ? { minimum } : {}), shortfalls };
}

/** How many answers each status got, every operation's together, in the order of the statuses. */
export function statusCounts(coverage: CoverageReport): Array<{ status: number; count: number }> {
  const all = new Map<number, number>();
  for (const operation of coverage.operations.byOperation)
    for (const { status, count } of operation.statuses) all.set(status, (all.get(status) ?? 0) + count);
  return [...all].sort(([a], [b]) => a - b).map(([status, count]) => ({ status, count }));
}

/** `200 ×40 404 ×3`. */
function statusesText(coverage: CoverageReport): string {
  const text = statusCounts(coverage)
    .map(({ status, count }) => `${status} ×${count}`)
    .join(' ');
  return text || 'none';
}

/** A list, its first few named and the rest counted. */
function firstFew(items: readonly string[], shown = 6): string {
  const more = items.length > shown ? `, … ${items.length - shown} more` : '';
  return `${items.slice(0, shown).join(', ')}${more}`;
}

/**
 * How a report introduces its coverage: what the run exercised, for information, unless a minimum was asked for
 * (`--min-coverage`), which makes it a gate. A clean run against a real deployment sees few states and one create
 * body: that is no problem of the deployment's, and the report must not read as if it were.
 */
export function coverageHeading(coverage: ReportCoverage): string {
  if (coverage.shortfalls.length > 0) return 'coverage, below --min-coverage';
  if (coverage.minimum) return 'coverage, held to --min-coverage';
  return 'coverage, for information (what this run exercised; --min-coverage makes it a gate)';
}

/**
 * The coverage in a few lines of plain text, for the terminal: operations and statuses, response fields, states,
 * request fields, and each minimum missed.
 */
export function coverageLines(coverage: ReportCoverage): string[] {
  const { requestFields: requests } = coverage;
  const figures = coverageFigures(coverage);
  const others = ({ never: unseen }: CoverageFigure) =>
    unseen.length > 0 ? ` (not in this run's answers: ${firstFew(unseen)})` : '';
  const varied =
    requests.varied.length > 0 ? `: ${requests.varied.join(', ')}` : ' (property cases vary them: --examples N)';
  return [
    `${figureText(figures.operations)}, statuses ${statusesText(coverage)}`,
    `${figureText(figures.fields)} seen${others(figures.fields)}`,
    `${figureText(figures.states)} seen${others(figures.states)}`,
    `${figureText(figures.requestFields)} over ${requests.requests} valid create requests${varied}`,
    ...coverage.shortfalls.map((shortfall) => `below --min-coverage: ${shortfall}`),
  ];
}
