import { parseMinimumCoverage, type CoverageMinimum } from '../contract/report/coverage.js';
import { stringOption, UsageError, type OptionSpec, type OptionValues } from './command.js';

/**
 * The report files, named once: each option's kind and what it writes. The writers themselves (cli/reports.ts) are
 * keyed by these options, so a format added here without a writer does not compile.
 */
export const reportFileKinds = {
  'report-json': { kind: 'JSON', description: 'Write the JSON report to FILE.' },
  'report-junit': { kind: 'JUnit', description: 'Write a JUnit XML report to FILE.' },
  'report-html': { kind: 'HTML', description: 'Write a self-contained HTML report to FILE (no external request).' },
} as const;
export type ReportFileOption = keyof typeof reportFileKinds;

/** The report options `contract` and `proxy` share. */
export const reportOptions: OptionSpec[] = [
  ...Object.entries(reportFileKinds).map(([name, { description }]): OptionSpec => ({
    name,
    type: 'string',
    value: 'FILE',
    description,
  })),
  {
    name: 'report-github',
    type: 'boolean',
    description: 'GitHub annotations on stdout and a summary appended to $GITHUB_STEP_SUMMARY.',
    defaultText: 'on when GITHUB_ACTIONS=true',
  },
];

/** `--strict`, which `contract` and `proxy` share. */
export const strictOption: OptionSpec = {
  name: 'strict',
  type: 'boolean',
  description: 'Exit 1 on any failed check, warnings included.',
};

/** `--ignore`, which `contract` and `proxy` share: one file of finding ids serves both. */
export const ignoreOption: OptionSpec = {
  name: 'ignore',
  type: 'string',
  value: 'FILE',
  description:
    'Findings the team accepts (a baseline), one id a line as the reports print them (# comments): still listed, as ' +
    'accepted, they fail nothing; ids no finding had are listed as stale, failing nothing either.',
};

/** `--min-coverage`, which `contract` and `proxy` share. */
export const minCoverageOption: OptionSpec = {
  name: 'min-coverage',
  type: 'string',
  value: 'KIND=PERCENT',
  description:
    'Fail the run (exit 1) when its coverage is under this: operations, fields (documented response fields seen) ' +
    'or states, comma-separated: fields=100,states=50.',
  defaultText: 'none',
};

/** The --min-coverage given, read; a value that cannot be read is a usage error. */
export function minCoverage(values: OptionValues): CoverageMinimum | undefined {
  const text = stringOption(values, 'min-coverage');
  if (text === undefined) return undefined;
  const minimum = parseMinimumCoverage(text);
  if ('problem' in minimum) throw new UsageError(minimum.problem);
  return minimum;
}
