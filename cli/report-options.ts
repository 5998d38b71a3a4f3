import { parseMinimumCoverage, type CoverageMinimum } from '../contract/report/coverage.js';
import { stringOption, UsageError, type OptionSpec, type OptionValues } from './command.js';

/** The report options `contract` and `proxy` share. */
export const reportOptions: OptionSpec[] = [
  { name: 'report-json', type: 'string', value: 'FILE', description: 'Write the JSON report to FILE.' },
  { name: 'report-junit', type: 'string', value: 'FILE', description: 'Write a JUnit XML report to FILE.' },
  {
    name: 'report-html',
    type: 'string',
    value: 'FILE',
    description: 'Write a self-contained HTML report to FILE (no external request).',
  },
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
