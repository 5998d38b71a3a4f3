import { constants, createWriteStream } from 'node:fs';
import { lstat, mkdir, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The one way evalkit writes a file into a folder a user named (`proxy --record DIR`, `fixtures --out DIR`): inside
 * that folder, never through a link planted at a name it writes (a colleague's, a script's, pointing anywhere on the
 * disk). A whole file is written beside its name and renamed over it, which replaces a link instead of following it;
 * an append-only file is opened without following a link (O_NOFOLLOW) and refused when it is one; a subfolder evalkit
 * owns (`DIR/human-evaluations`) is refused when it is a link. The folder named itself is taken as given: a user may
 * well keep their recordings behind a link of their own.
 */

/** A name in a folder evalkit will not write through; the message names the file and what to do. */
export class FolderProblem extends Error {}

function linkProblem(path: string): FolderProblem {
  return new FolderProblem(
    `${path} is a symbolic link: evalkit writes only inside the folder asked for, never through a link (remove it)`,
  );
}

/** A single name inside the folder: no separator, no `.` or `..`, which would lead out of it. */
function checkedName(name: string): string {
  if (name === '' || name === '.' || name === '..' || /[/\\\0]/.test(name))
    throw new FolderProblem(`'${name.slice(0, 100)}' is not a file name inside the folder`);
  return name;
}

/** Whether something is at the path, without following a link there; ENOENT is nothing, other errors are thrown. */
async function entryAt(path: string) {
  try {
    return await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** `dir/name` as a folder evalkit owns, created when missing; a link there (to anywhere) is refused. */
export async function ownSubfolder(dir: string, name: string): Promise<string> {
  const path = join(dir, checkedName(name));
  await mkdir(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  const entry = await entryAt(path);
  if (entry?.isSymbolicLink()) throw linkProblem(path);
  if (!entry?.isDirectory()) throw new FolderProblem(`${path} is not a folder: remove it, or write elsewhere`);
  return path;
}

let partials = 0;

/** A fresh name beside the file for its whole content: created exclusively (O_EXCL), so never a link's target. */
function partialName(file: string): string {
  return `${file}.${process.pid}-${++partials}.partial`;
}

/** What writes the content of a whole file, chunk by chunk, honouring backpressure. */
export type Write = (chunk: string) => Promise<void>;

/**
 * Writes `dir/name` whole: into a new file beside it, then renamed over the name, so a link planted at the name is
 * replaced, never written through, and a reader (the mock's fixture watcher) never sees half a file. Resolves to the
 * file's path.
 */
export async function replaceFile(dir: string, name: string, fill: (write: Write) => Promise<void>): Promise<string> {
  const file = join(dir, checkedName(name));
  const partial = partialName(file);
  const stream = createWriteStream(partial, { flags: 'wx' });
  try {
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    await fill(
      (chunk) => new Promise((resolve, reject) => stream.write(chunk, (error) => (error ? reject(error) : resolve()))),
    );
    await new Promise<void>((resolve, reject) =>
      stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    await rename(partial, file);
  } catch (error) {
    stream.destroy();
    await unlink(partial).catch(() => undefined);
    throw error;
  }
  return file;
}

/** O_NOFOLLOW where the system has it (not on Windows, where the lstat before the open stands alone). */
const noFollow = constants.O_NOFOLLOW ?? 0;

/**
 * `dir/name` opened for appending, created when missing: refused (FolderProblem) when the name is a link or anything
 * but a plain file (a FIFO would block every write). Lines appended are written whole, in the order given.
 */
export class AppendOnlyFile {
  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  static async open(dir: string, name: string): Promise<AppendOnlyFile> {
    const path = join(dir, checkedName(name));
    const entry = await entryAt(path);
    if (entry?.isSymbolicLink()) throw linkProblem(path);
    if (entry && !entry.isFile()) throw new FolderProblem(`${path} is not a plain file: remove it`);
    let handle: FileHandle;
    try {
      handle = await open(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | noFollow, 0o666);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A link planted between the lstat and the open.
      if (code === 'ELOOP') throw linkProblem(path);
      // Named as the file that cannot be written, so no caller reads the code as another cause (a port's EACCES).
      throw new FolderProblem(`cannot write ${path} (${code ?? (error as Error).message})`);
    }
    // A hard link is the same file under another name, maybe outside the folder: appended through, it would be written.
    const { nlink } = await handle.stat().catch(async (error: unknown) => {
      await handle.close();
      throw error;
    });
    if (nlink > 1) {
      await handle.close();
      throw new FolderProblem(
        `${path} has ${nlink} names (a hard link): evalkit appends only to a file of the folder's own (remove it)`,
      );
    }
    return new AppendOnlyFile(path, handle);
  }

  async append(text: string): Promise<void> {
    await this.handle.appendFile(text);
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/**
 * Creates `dir/name` holding `text`, readable and writable by its owner alone (0600): created exclusively and without
 * following a link (O_EXCL, O_NOFOLLOW), so a link planted at the name is never written through. Resolves false, and
 * writes nothing, when something is already there.
 */
export async function createPrivateFile(dir: string, name: string, text: string): Promise<boolean> {
  const path = join(dir, checkedName(name));
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | noFollow, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new FolderProblem(`cannot write ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    await handle.writeFile(text);
  } catch (error) {
    await handle.close();
    await unlink(path).catch(() => undefined);
    throw new FolderProblem(`cannot write ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  await handle.close();
  return true;
}
