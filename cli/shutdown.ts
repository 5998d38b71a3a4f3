/** Whether a process still runs (EPERM: it does, but is another user's). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Resolves once SIGINT or SIGTERM arrives, or, when npm started this process (`npx evalkit`, an npm script: npm sets
 * `npm_command`), once its parent is gone. npm runs the bin through `sh -c` and passes a signal to that shell only,
 * which dies without handing it on: without this check, `npx evalkit mock` killed would leave the mock running, its
 * port held, as an orphan. Its end is then a SIGTERM's.
 */
export function shutdownSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const parent = process.ppid;
    const orphaned =
      process.env.npm_command === undefined
        ? undefined
        : setInterval(() => running(parent) || stop('SIGTERM'), 200).unref();
    const stop = (signal: NodeJS.Signals) => {
      clearInterval(orphaned);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
