import { appendFile, writeFile } from 'node:fs/promises';
import { githubAnnotations, githubStepSummary } from '../contract/report/github.js';
import { htmlReport } from '../contract/report/html.js';
import { jsonReport, junitReport, type Report } from '../contract/index.js';
import { stringOption, UsageError, type OptionSpec, type OptionValues } from './command.js';
import { writeOut } from './output.js';

/** The report options `contract` and `proxy` share. */
export const reportOptions: OptionSpec[] = [
  { name: 'report-json', type: 'string', value: 'FILE', description: 'Write the JSON report to FILE.' },
  { name: 'report-junit', type: 'string', value: 'FILE', description: 'Write a JUnit XML report to FILE.' },
  { name: 'report-html', type: 'string', value: 'FILE', description: 'Write a self-contained HTML report to FILE (no external request).' },
  { name: 'report-github', type: 'boolean', description: 'GitHub annotations on stdout and a summary appended to $GITHUB_STEP_SUMMARY.', defaultText: 'on when GITHUB_ACTIONS=true' },
];

async function writeReport(file: string | undefined, content: () => string, option: string): Promise<void> {
  if (file === undefined) return;
  try {
    await writeFile(file, content());
  } catch (error) {
    throw new UsageError(`--${option} cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Writes every report asked for: files, then GitHub's annotations (stdout) and step summary (appended). */
export async function writeReports(values: OptionValues, report: Report, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  await writeReport(stringOption(values, 'report-json'), () => jsonReport(report), 'report-json');
  await writeReport(stringOption(values, 'report-junit'), () => junitReport(report), 'report-junit');
  await writeReport(stringOption(values, 'report-html'), () => htmlReport(report), 'report-html');
  if (values['report-github'] !== true && env.GITHUB_ACTIONS !== 'true') return;
  await writeOut(githubAnnotations(report));
  const summaryFile = env.GITHUB_STEP_SUMMARY;
  if (!summaryFile) {
    process.stderr.write('evalkit: GITHUB_STEP_SUMMARY is not set: annotations only, no step summary\n');
    return;
  }
  try {
    await appendFile(summaryFile, githubStepSummary(report));
  } catch (error) {
    throw new UsageError(`cannot append the step summary to GITHUB_STEP_SUMMARY (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}
