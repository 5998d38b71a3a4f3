import { closeSync, constants, openSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/**
 * A file a user named, read whole but never past a limit: a device (`/dev/zero`) or a runaway file is refused once
 * the limit is passed, where an unbounded read would run until memory ran out. Pipes read to their end (`<(…)`).
 */
export class FileTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`larger than ${limit % 2 ** 20 === 0 ? `${limit / 2 ** 20} MiB` : `${limit} bytes`}`);
  }
}

/** Why a read failed, in a message's words: the limit passed, or the system's error code. */
export function readFailure(error: unknown): string {
  return error instanceof FileTooLarge ? error.message : ((error as NodeJS.ErrnoException).code ?? 'error');
}

const chunkBytes = 64 * 1024;

/** The chunks read so far, refused past the limit; the sync and async reads share it. */
class Collected {
  private readonly chunks: Buffer[] = [];
  private total = 0;

  constructor(private readonly limit: number) {}

  /** Keeps `count` bytes of `buffer`; false when the read has ended (nothing read). */
  add(buffer: Buffer, count: number): boolean {
    if (count === 0) return false;
    this.total += count;
    if (this.total > this.limit) throw new FileTooLarge(this.limit);
    this.chunks.push(buffer.subarray(0, count));
    return true;
  }

  text(): string {
    return Buffer.concat(this.chunks, this.total).toString('utf8');
  }
}

/** The file's text, at most `limit` bytes of it; FileTooLarge past that, the system's error otherwise. */
export function readBoundedSync(path: string, limit: number): string {
  const descriptor = openSync(path, 'r');
  try {
    const collected = new Collected(limit);
    for (;;) {
      const buffer = Buffer.allocUnsafe(chunkBytes);
      if (!collected.add(buffer, readSync(descriptor, buffer, 0, chunkBytes, null))) return collected.text();
    }
  } finally {
    closeSync(descriptor);
  }
}

/** An open file's text to its end, at most `limit` bytes. */
async function readToEnd(handle: FileHandle, limit: number): Promise<string> {
  const collected = new Collected(limit);
  for (;;) {
    const buffer = Buffer.allocUnsafe(chunkBytes);
    const { bytesRead } = await handle.read(buffer, 0, chunkBytes, null);
    if (!collected.add(buffer, bytesRead)) return collected.text();
  }
}

/** As readBoundedSync, without blocking the event loop. */
export async function readBounded(path: string, limit: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    return await readToEnd(handle, limit);
  } finally {
    await handle.close();
  }
}

/** A private file that cannot be read as one: a link, not a plain file, or readable by others. */
export class NotPrivate extends Error {}

/**
 * A private file's text (a key), at most `limit` bytes: refused (NotPrivate) when the name is a link (a link planted
 * there would lend evalkit a key someone else holds) or anything but a plain file, or when others than its owner may
 * read or write it.
 */
export async function readPrivateFile(path: string, limit: number): Promise<string> {
  let handle;
  try {
    // O_NONBLOCK: a FIFO planted at the name would block an open for reading until someone wrote to it.
    handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new NotPrivate(`${path} is a symbolic link`);
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new NotPrivate(`${path} is not a plain file`);
    // Windows keeps no such bits: there the file's ACL is the user's own business.
    if (process.platform !== 'win32' && (stats.mode & 0o077) !== 0)
      throw new NotPrivate(
        `${path} can be read or written by others (mode ${(stats.mode & 0o777).toString(8)}): chmod 600 ${path}`,
      );
    return await readToEnd(handle, limit);
  } finally {
    await handle.close();
  }
}
