import { execFile } from 'node:child_process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { main } from '../../cli/main.js';

export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/evalkit.js', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A stream that keeps what is written to it, as a pipe to a reader would. */
class Captured extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** Colour codes would only get in the way of comparing output. */
const testEnv = (): NodeJS.ProcessEnv => ({ ...process.env, NO_COLOR: '1' });

/**
 * Runs the CLI in this process through `main(argv, io)`, with stdout and stderr captured: what a user would see,
 * without the cost of a process. A mock or proxy run stops when `shutdown` resolves (never, unless given).
 */
export async function runCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; shutdown?: Promise<NodeJS.Signals> } = {},
): Promise<CliRun> {
  const stdout = new Captured();
  const stderr = new Captured();
  const code = await main(args, {
    stdout,
    stderr,
    env: options.env ?? testEnv(),
    untilShutdown: () => options.shutdown ?? new Promise<never>(() => {}),
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/**
 * Runs the built CLI (`npm test` builds first) as a user would, in a child process. Only for what needs a process of
 * its own (test/README.md lists each use): everything else goes through runCli.
 */
export function spawnCli(args: string[], options: { cwd?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd: options.cwd ?? projectRoot,
        timeout: options.timeoutMs ?? 30_000,
        maxBuffer: 256 * 1024 * 1024,
        env: testEnv(),
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
