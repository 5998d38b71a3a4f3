import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

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

/** As readBoundedSync, without blocking the event loop. */
export async function readBounded(path: string, limit: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const collected = new Collected(limit);
    for (;;) {
      const buffer = Buffer.allocUnsafe(chunkBytes);
      const { bytesRead } = await handle.read(buffer, 0, chunkBytes, null);
      if (!collected.add(buffer, bytesRead)) return collected.text();
    }
  } finally {
    await handle.close();
  }
}
