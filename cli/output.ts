/** Writes to stdout honouring backpressure; a closed pipe (`| head`) ends the write quietly instead of crashing. */
export async function writeOut(chunk: string): Promise<void> {
  if (process.stdout.destroyed) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      process.stdout.off('error', done);
      resolve();
    };
    process.stdout.once('error', done);
    if (process.stdout.write(chunk)) done();
    else process.stdout.once('drain', done);
  });
}
