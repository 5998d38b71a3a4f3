import type { Writable } from 'node:stream';

/**
 * Everything a command reads from or writes to its process. bin/evalkit.js passes the real process's; tests pass
 * captured streams, so a command runs in the test's own process with nothing spawned.
 */
export interface CliIo {
  /** `isTTY` decides colour, as it does for process.stdout. */
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  /** Resolves once a long-running command (mock, proxy) should stop, with the signal that asked. */
  untilShutdown(): Promise<NodeJS.Signals>;
}
