import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderOpenApi } from '../../api/openapi.js';
import { runCli, type CliRun } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dirs.js';

export type Json = Record<string, unknown>;

/** evalkit's own document, as a plain JSON value to edit. */
export const ourDocument = (): Json => JSON.parse(renderOpenApi('json')) as Json;

/** The component schemas of a document, to edit in place. */
export const schemasOf = (document: Json) => (document.components as { schemas: Json }).schemas as Record<string, Json>;

/** The properties of one component schema, to edit in place. */
export const propertiesOf = (document: Json, name: string) => schemasOf(document)[name]?.properties as Json;

let dir: string | undefined;
let count = 0;

/** Writes the two documents' texts to files named as the caller says (`.json` or `.yaml`: either is read). */
export async function writeDocuments(
  old: { name: string; text: string },
  next: { name: string; text: string },
): Promise<{ oldFile: string; newFile: string }> {
  // Another file's removeTempDirs (afterAll) may have removed the folder: files share modules in a worker.
  if (dir === undefined || !existsSync(dir)) dir = tempDir('evalkit-diff-');
  count++;
  const oldFile = join(dir, `${count}-old-${old.name}`);
  const newFile = join(dir, `${count}-new-${next.name}`);
  await writeFile(oldFile, old.text);
  await writeFile(newFile, next.text);
  return { oldFile, newFile };
}

/** Writes the two documents and runs evalkit diff on them in this process. */
export async function diffTexts(
  old: { name: string; text: string },
  next: { name: string; text: string },
): Promise<CliRun & { oldFile: string; newFile: string }> {
  const { oldFile, newFile } = await writeDocuments(old, next);
  return { ...(await runCli(['diff', oldFile, newFile])), oldFile, newFile };
}

/** Messages of the JavaScript engine, never the one line a refused document gets. */
export const engineErrors = new RegExp(
  [
    'Maximum call stack',
    'RangeError',
    'TypeError',
    'is not a function',
    'is not iterable',
    'Cannot read',
    'Cannot convert',
    'circular structure',
    'out of memory',
    '\\n\\s+at ',
  ].join('|'),
);
