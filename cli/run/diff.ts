import { diffDocuments } from '../../diff/changes.js';
import { DocumentProblem, OpenApiDocument } from '../../diff/document.js';
import { diffReport, githubDiff, markdownDiff, terminalDiff, type DiffReport } from '../../diff/report.js';
import { acceptedIds } from '../ignore-file.js';
import { formatOf, UsageError, type RunCommand } from '../command.js';
import { diffFormats } from '../commands/diff.js';
import { readGivenFile } from '../given-file.js';
import { writeOut } from '../output.js';
import { trafficOption } from '../traffic-option.js';

async function openDocument(file: string): Promise<OpenApiDocument> {
  const text = await readGivenFile(file);
  try {
    return OpenApiDocument.parse(text, file);
  } catch (error) {
    if (error instanceof DocumentProblem) throw new UsageError(error.message);
    throw error;
  }
}

/** Each --format's writer: the terminal's text, JSON, a pull-request comment, GitHub annotations. */
const writers: Record<(typeof diffFormats)[number], (report: DiffReport) => string> = {
  text: terminalDiff,
  json: (report) => `${JSON.stringify(report, null, 2)}\n`,
  markdown: markdownDiff,
  github: githubDiff,
};

/** `evalkit diff OLD NEW`: the changes between two documents; exit 1 when one breaks a client. */
export const run: RunCommand = async (values, io) => {
  const operands = (values._ as string[] | undefined) ?? [];
  if (operands.length !== 2)
    throw new UsageError(`takes two documents, OLD and NEW, got ${operands.length} (see evalkit diff --help)`);
  const [oldFile, newFile] = operands as [string, string];
  const format = formatOf(values, diffFormats);
  const [before, after] = [await openDocument(oldFile), await openDocument(newFile)];
  const traffic = (await trafficOption(values, 'traffic'))?.traffic;
  const accepted = await acceptedIds(values);
  let report;
  try {
    report = diffReport({ old: oldFile, new: newFile }, diffDocuments(before, after), traffic, accepted);
  } catch (error) {
    // A $ref that leads nowhere, or a schema refused, is only met while comparing; the message names its file.
    if (error instanceof DocumentProblem) throw new UsageError(error.message);
    throw error;
  }
  await writeOut(io.stdout, writers[format](report));
  return report.breaking > 0 ? 1 : 0;
};
