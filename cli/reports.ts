import { constants } from 'node:fs';
import { access, lstat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { githubAnnotations, githubStepSummary } from '../contract/report/github.js';
import { htmlReport } from '../contract/report/html.js';
import { jsonReport, junitReport, type Report } from '../contract/index.js';
import { AppendOnlyFile, FolderProblem, replaceFile } from '../http/folder-files.js';
import { stringOption, UsageError, type OptionValues } from './command.js';
import type { CliIo } from './io.js';
import { writeOut } from './output.js';
import { reportFileKinds, type ReportFileOption } from './report-options.js';

/** The writer of each report file (cli/report-options.ts names them), from a (redacted) Report. */
const writers: Record<ReportFileOption, (report: Report) => string> = {
  'report-json': jsonReport,
  'report-junit': junitReport,
  'report-html': htmlReport,
};
const reportFiles = (Object.keys(writers) as ReportFileOption[]).map((option) => ({
  option,
  kind: reportFileKinds[option].kind,
  content: writers[option],
}));

function reason(error: unknown): string {
  return error instanceof FolderProblem ? error.message : ((error as NodeJS.ErrnoException).code ?? 'error');
}

/** A report path that cannot be written is a usage error found before any request goes out, not after the run. */
export async function checkReportPaths(values: OptionValues): Promise<void> {
  for (const { option } of reportFiles) {
    const file = stringOption(values, option);
    if (file === undefined) continue;
    const fail = (why: string) => new UsageError(`--${option} cannot write ${file} (${why})`);
    const existing = await lstat(file).catch(() => undefined);
    if (existing?.isDirectory()) throw fail('it is a directory');
    try {
      // The file is written beside its name and renamed over it: the folder is what must be writable.
      await access(dirname(file), constants.W_OK);
    } catch (error) {
      throw fail(reason(error));
    }
  }
}

/**
 * Writes every report asked for: files (each named on stderr, with its full path), then GitHub's annotations (stdout)
 * and step summary (appended). Call it after
 * the terminal report, so that whatever happens to the files it is never lost; a write that fails anyway is said on
 * stderr (`evalkit <command>: ...`) and resolves to false, for exit code 2.
 */
export async function writeReports(command: string, values: OptionValues, report: Report, io: CliIo): Promise<boolean> {
  const { env } = io;
  let ok = true;
  const failed = (message: string) => {
    io.stderr.write(`evalkit ${command}: ${message}\n`);
    ok = false;
  };
  for (const { option, kind, content } of reportFiles) {
    const file = stringOption(values, option);
    if (file === undefined) continue;
    try {
      // Written beside the name and renamed over it: a link planted at the name is replaced, never written through.
      await replaceFile(dirname(file), basename(file), (write) => write(content(report)));
      // Said where, in full: a CI log read later should lead to the file without knowing the job's working folder.
      io.stderr.write(`evalkit ${command}: ${kind} report written to ${resolve(file)}\n`);
    } catch (error) {
      failed(`--${option} cannot write ${file} (${reason(error)})`);
    }
  }
  if (values['report-github'] !== true && env.GITHUB_ACTIONS !== 'true') return ok;
  await writeOut(io.stdout, githubAnnotations(report));
  const summaryFile = env.GITHUB_STEP_SUMMARY;
  if (!summaryFile) {
    io.stderr.write(`evalkit ${command}: GITHUB_STEP_SUMMARY is not set: annotations only, no step summary\n`);
    return ok;
  }
  try {
    // Appended without following a link: one planted at the runner's path is refused, not written through.
    const summary = await AppendOnlyFile.open(dirname(summaryFile), basename(summaryFile));
    try {
      await summary.append(githubStepSummary(report));
    } finally {
      await summary.close();
    }
  } catch (error) {
    failed(`cannot append the step summary to GITHUB_STEP_SUMMARY (${reason(error)})`);
  }
  return ok;
}
