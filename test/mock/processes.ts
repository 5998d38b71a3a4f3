import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

export interface Child {
  process: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of the pattern on stdout. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL to the child's process group, if it still runs: nothing is left behind when a test fails. */
  kill(): void;
}

/** Starts a process in its own process group, collecting its output. */
export function startChild(command: string, args: string[], cwd: string): Child {
  const child = spawn(command, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk) => (out += chunk));
  child.stderr?.on('data', (chunk) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let running = true;
  void exited.then(() => (running = false));
  return {
    process: child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          clearInterval(poll);
          reject(
            new Error(
              `no ${pattern} on stdout within ${timeoutMs} ms; stdout: ${out.slice(-500)}; stderr: ${err.slice(-500)}`,
            ),
          );
        }, timeoutMs);
        const poll = setInterval(() => {
          const match = pattern.exec(out);
          if (match) {
            clearInterval(poll);
            clearTimeout(timer);
            resolve(match);
          } else if (!running) {
            clearInterval(poll);
            clearTimeout(timer);
            reject(new Error(`exited before ${pattern}; stderr: ${err.slice(-500)}`));
          }
        }, 25);
      });
    },
    kill() {
      if (running && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    },
  };
}

const root = new URL('../../', import.meta.url).pathname;

/**
 * `evalkit(...args)` runs the built CLI from the project root, and every process it started is killed after the
 * file's tests; the tests fail at once, saying why, when dist/ was not built.
 */
export function builtCli(): { root: string; evalkit(...args: string[]): Child } {
  const children: Child[] = [];
  beforeAll(() => {
    if (!existsSync(join(root, 'dist/mock/index.js')))
      throw new Error('dist/ has no mock: run `npm run build` before these tests');
  });
  afterAll(() => {
    for (const child of children) child.kill();
  });
  return {
    root,
    evalkit(...args) {
      const child = startChild(process.execPath, ['bin/evalkit.js', ...args], root);
      children.push(child);
      return child;
    },
  };
}
