import type { OptionSpec } from './command.js';

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
