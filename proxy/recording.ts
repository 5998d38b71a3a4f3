import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { recordFolder } from '../api/operations.js';
import { validate } from '../schemas/validators/index.js';

/** What became of one answer offered for recording. */
export type RecordingOutcome = { recorded: string } | { refused: string };

/**
 * Ids that are safe as file names on every system the fixtures may travel to, and that the mock maps back to the same
 * id (`<id>.json`). Anything else is refused rather than escaped: an escaped name would serve another id.
 */
const fileSafeId = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

/**
 * Writes each valid 200 answer of the fetch operation as `DIR/<recordFolder>/<id>.json` (api/operations.ts), the
 * layout `evalkit mock --fixtures DIR` serves. An answer that fails the schema, answers another id, or carries any
 * credential the proxy knows of is refused, never written.
 */
export class Recorder {
  private readonly folder: string;
  private pending: Promise<unknown> = Promise.resolve();
  private writes = 0;

  private constructor(dir: string) {
    this.folder = join(dir, recordFolder);
  }

  /** Creates the folder at once, so a directory that cannot be written is a start-up error, not a silent loss. */
  static async open(dir: string): Promise<Recorder> {
    const recorder = new Recorder(dir);
    await mkdir(recorder.folder, { recursive: true });
    return recorder;
  }

  /**
   * `containsSecret`: whether a text holds a credential (a watched lm_providers_keys value, a --header value, the
   * client's own credentials). Resolves once the file is written, or with why it was not.
   */
  offer(id: string, body: string, containsSecret: (text: string) => boolean): Promise<RecordingOutcome> {
    const outcome = this.write(id, body, containsSecret);
    this.pending = this.pending.then(() => outcome);
    return outcome;
  }

  /** Resolves once every write offered so far has ended. */
  settled(): Promise<unknown> {
    return this.pending;
  }

  private async write(id: string, body: string, containsSecret: (text: string) => boolean): Promise<RecordingOutcome> {
    let data: unknown;
    try {
      data = JSON.parse(body);
    } catch {
      return { refused: 'the body is not JSON' };
    }
    if (!validate('HumanEvaluation', data).valid) return { refused: 'the body fails the HumanEvaluation schema' };
    if ((data as { id: string }).id !== id) return { refused: 'the body is the record of another id' };
    if (!fileSafeId.test(id))
      return { refused: 'the id is not usable as a file name (letters, digits, ".", "_", "-" only, at most 200)' };
    if (containsSecret(body)) return { refused: 'the body carries a credential' };
    const file = join(this.folder, `${id}.json`);
    const partial = `${file}.${process.pid}-${++this.writes}.partial`;
    try {
      // Written whole, then renamed: a mock reading the folder never sees half a file.
      await writeFile(partial, `${JSON.stringify(data, null, 2)}\n`);
      await rename(partial, file);
    } catch (error) {
      return { refused: `cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
    }
    return { recorded: file };
  }
}
