/** Raised by writeOut once stdout's reader has gone (`| head -1`): the command stops producing and exits 0. */
export class OutputClosed extends Error {}

let closed = false;
let watching = false;

/**
 * An EPIPE may arrive after a write returned, when no write is waiting for it: one permanent listener keeps it
 * from crashing the process and remembers it for the next write.
 */
function watchStdout(): void {
  if (watching) return;
  watching = true;
  process.stdout.on('error', () => {
    closed = true;
  });
}

/** Writes to stdout honouring backpressure; throws OutputClosed once the pipe is closed, so generation stops. */
export async function writeOut(chunk: string): Promise<void> {
  watchStdout();
  if (closed || process.stdout.destroyed) throw new OutputClosed('stdout closed');
  await new Promise<void>((resolve) => {
    const done = () => {
      process.stdout.off('error', done);
      process.stdout.off('drain', done);
      resolve();
    };
    process.stdout.once('error', done);
    if (process.stdout.write(chunk)) done();
    else process.stdout.once('drain', done);
  });
  if (closed) throw new OutputClosed('stdout closed');
}
