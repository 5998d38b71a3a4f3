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
    this.emit('written');
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

/** A long-running command (mock, proxy) started in this process: what the tests of a spawned one read, alike. */
export interface RunningCli {
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of the pattern on stdout. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** As a signal would: the command shuts down as on SIGINT or SIGTERM. */
  process: { kill(signal: NodeJS.Signals): void };
  /** Stops it (SIGTERM) if it still runs: nothing is left listening when a test fails. */
  kill(): void;
}

/** Starts a command in this process through `main(argv, io)`; `process.kill(signal)` stands for the signal. */
export function startCli(args: string[]): RunningCli {
  const stdout = new Captured();
  const stderr = new Captured();
  let stop: (signal: NodeJS.Signals) => void = () => {};
  const stopped = new Promise<NodeJS.Signals>((resolve) => (stop = resolve));
  let running = true;
  const exited = main(args, { stdout, stderr, env: testEnv(), untilShutdown: () => stopped }).then((code) => {
    running = false;
    return { code, signal: null };
  });
  return {
    stdout: () => stdout.text,
    stderr: () => stderr.text,
    exited,
    process: { kill: (signal) => stop(signal) },
    kill: () => stop('SIGTERM'),
    waitFor: (pattern, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(stdout.text);
          if (match) finish(() => resolve(match));
          else if (!running) finish(() => reject(new Error(`exited before ${pattern}; stderr: ${stderr.text}`)));
        };
        const timer = setTimeout(
          () => finish(() => reject(new Error(`no ${pattern} on stdout within ${timeoutMs} ms; ${stderr.text}`))),
          timeoutMs,
        );
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          stdout.off('written', check);
          settle();
        };
        stdout.on('written', check);
        void exited.then(check);
        check();
      }),
  };
}

/**
 * Runs the built CLI (`npm test` builds first) as a user would, in a child process. Only for what needs a process of
 * its own (test/README.md lists each use): everything else goes through runCli.
 */
export function spawnCli(args: string[], options: { cwd?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  return runNodeScript(bin, args, {
    cwd: options.cwd ?? projectRoot,
    timeout: options.timeoutMs ?? 30_000,
    maxBuffer: 256 * 1024 * 1024,
    env: testEnv(),
  });
}

/** `node SCRIPT ARGS` in a child process: resolves, never rejects, with its exit code (1 when it was killed). */
export function runNodeScript(
  script: string,
  args: string[],
  options: { cwd: string; timeout: number; maxBuffer: number; env: NodeJS.ProcessEnv },
): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], options, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
