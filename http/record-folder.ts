import { mkdir, readdir } from 'node:fs/promises';
import { recordFolder } from '../api/operations.js';
import { ownSubfolder, replaceFile } from './folder-files.js';

/** What became of one record offered for writing. */
export type RecordingOutcome = { recorded: string } | { refused: string };

/**
 * Ids that are safe as file names on every system the fixtures may travel to, and that the mock maps back to the same
 * id (`<id>.json`): no separator, no traversal (`..`, a leading dot), no NUL, space or trailing dot, under every
 * length limit. Anything else is refused rather than encoded: the mock reads the file name as the id, so an encoded
 * name would be served for another id.
 */
const fileSafeId = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

/** Windows reserves these device names whatever follows the first dot, in any letter case: `CON.json` is no file. */
const windowsDevice = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])(?:\.|$)/i;

/** Why an id cannot name its file, or undefined. */
function fileNameProblem(id: string): string | undefined {
  if (!fileSafeId.test(id))
    return (
      'the id is not usable as a file name (letters, digits, ".", "_", "-", not starting with ".", at most 200): ' +
      'refused, not encoded: the mock reads the file name as the id'
    );
  if (windowsDevice.test(id))
    return `the id names a Windows device (${id.split('.')[0]}): refused, no file can hold it`;
  return undefined;
}

/**
 * The one writer of `DIR/<recordFolder>/<id>.json` (api/operations.ts), the layout `evalkit mock --fixtures DIR`
 * serves and http/traffic.ts reads: `evalkit proxy --record` and `evalkit fixtures --out` write through it. Each
 * record is written whole and then renamed (http/folder-files.ts), so a mock watching the folder never reads half a
 * file and a link planted at its name is replaced, not written through.
 */
export class RecordFolder {
  /** The id of every record in the folder, by its lower-cased form: on macOS and Windows `A` and `a` are one file. */
  private readonly ids = new Map<string, string>();

  private constructor(readonly folder: string) {}

  /**
   * Creates the folder at once, so a directory that cannot be written is a start-up error, not a silent loss; throws a
   * FolderProblem when `DIR/<recordFolder>` is a link.
   */
  static async open(dir: string, folder: string = recordFolder): Promise<RecordFolder> {
    await mkdir(dir, { recursive: true });
    const records = new RecordFolder(await ownSubfolder(dir, folder));
    for (const name of await readdir(records.folder))
      if (name.endsWith('.json')) {
        const id = name.slice(0, -'.json'.length);
        records.ids.set(id.toLowerCase(), id);
      }
    return records;
  }

  /**
   * Writes the record of this id, or says why not: an id that cannot name its file, or that differs only in case
   * from one already in the folder, is refused.
   */
  async write(id: string, record: unknown): Promise<RecordingOutcome> {
    const problem = fileNameProblem(id);
    if (problem) return { refused: problem };
    const sameFile = this.ids.get(id.toLowerCase());
    if (sameFile !== undefined && sameFile !== id)
      return {
        refused: `the id differs from ${sameFile}, already in the folder, only in case (one file on macOS, Windows)`,
      };
    this.ids.set(id.toLowerCase(), id);
    const name = `${id}.json`;
    try {
      return {
        recorded: await replaceFile(this.folder, name, (write) => write(`${JSON.stringify(record, null, 2)}\n`)),
      };
    } catch (error) {
      return {
        refused: `cannot write ${name} in ${this.folder} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      };
    }
  }
}
