import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';

/** The project root, where `bin/evalkit.js` and `node_modules` are. */
export const root = fileURLToPath(new URL('../../', import.meta.url));
const probe = new URL('./cpu-probe.js', import.meta.url).href;

export interface Usage {
  cpu: NodeJS.CpuUsage;
  rss: number;
}

/**
 * A benchmarked server: a process of its own with bench/cpu-probe preloaded, so it reports its own CPU time and
 * RSS.
 */
export interface Server {
  url: string;
  child: ChildProcess;
  usage(): Promise<Usage>;
}

/** Starts `node [nodeFlags] ARGS` on a free port and resolves once readyPath gets an HTTP answer. */
export async function startServer(
  args: (port: number) => string[],
  readyPath: string,
  nodeFlags: string[] = [],
): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeFlags, '--import', probe, ...args(port)], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`${url}${readyPath}`).then(
      () => true,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`server ${args(port).join(' ')} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const usage = () =>
    new Promise<Usage>((resolve) => {
      child.once('message', (message) => resolve(message as Usage));
      child.send('usage');
    });
  return { url, child, usage };
}

/** Peak resident memory of a process so far (Linux's VmHWM): what a load cost at its worst, however brief. */
export function peakRss(pid: number): number {
  const kib = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kib === undefined) throw new Error(`no VmHWM for process ${pid}: peak RSS is read from Linux's /proc`);
  return Number(kib) * 1024;
}
