import type { Writable } from 'node:stream';

/** Raised by writeOut once stdout's reader has gone (`| head -1`): the command stops producing and exits 0. */
export class OutputClosed extends Error {}

const closed = new WeakSet<Writable>();
const watched = new WeakSet<Writable>();

/**
 * An EPIPE may arrive after a write returned, when no write is waiting for it: one permanent listener per stream
 * keeps it from crashing the process and remembers it for the next write.
 */
function watch(stream: Writable): void {
  if (watched.has(stream)) return;
  watched.add(stream);
  stream.on('error', () => closed.add(stream));
}

/** Writes to stdout honouring backpressure; throws OutputClosed once the pipe is closed, so generation stops. */
export async function writeOut(stdout: Writable, chunk: string): Promise<void> {
  watch(stdout);
  if (closed.has(stdout) || stdout.destroyed) throw new OutputClosed('stdout closed');
  await new Promise<void>((resolve) => {
    const done = () => {
      stdout.off('error', done);
      stdout.off('drain', done);
      resolve();
    };
    stdout.once('error', done);
    if (stdout.write(chunk)) done();
    else stdout.once('drain', done);
  });
  if (closed.has(stdout)) throw new OutputClosed('stdout closed');
}
