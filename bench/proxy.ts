import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pathFor } from '../api/match.js';
import { generators } from '../generators/index.js';
import { validate } from '../schemas/validators/index.js';
import { freePort } from './free-port.js';
import { root } from './server-process.js';
import { benchMode, sized } from './quick.js';
import { percentile } from './stats.js';

/**
 * The latency `evalkit proxy` adds, measured side by side: the same GET of a 10 KB HumanEvaluation, direct to a bare
 * node:http server and through the proxy in front of it, one request at a time on a keep-alive connection, the two
 * interleaved in rounds so the machine's load drifts alike on both. Each server runs in a process of its own.
 * Then the proxy's memory: its RSS idle, and after each of two answers of `hugeMib` streamed through (bodies over the
 * 4 MiB cap are forwarded, not kept).
 * Usage: npm run bench:proxy [-- REQUESTS_PER_SIDE]   (default 5000)
 */
const perSide = Number(benchMode().args[0] ?? sized(5_000, 100));
const rounds = 10;
const warmup = sized(500, 20);
const serversScript = fileURLToPath(new URL('./servers.js', import.meta.url));
const id = '6637c0a25368ef07b03a64cd';
/** Over the proxy's 4 MiB cap either way, so the answer is forwarded without being kept. */
const hugeMib = sized(512, 8);

/** A process's resident set in MiB, as Linux reports it. */
function rssMib(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line?.[1] ?? Number.NaN) / 1024;
}

/** Streams one huge answer through a proxy, reading and dropping it; resolves to the bytes received. */
function drain(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve(bytes));
    })
      .on('error', reject)
      .end();
  });
}

/** The built `evalkit proxy` in a process of its own, forwarding to a local target port. */
function startProxy(targetPort: number, proxyPort: number): ChildProcess {
  return spawn(
    process.execPath,
    [join(root, 'bin/evalkit.js'), 'proxy', '--target', `http://127.0.0.1:${targetPort}`, '--port', String(proxyPort)],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
}

async function memoryRow(): Promise<string> {
  const streamPort = await freePort();
  const proxyPort = await freePort();
  const target = spawn(process.execPath, [serversScript, 'stream', String(streamPort), String(hugeMib)], {
    stdio: 'inherit',
  });
  const proxy = startProxy(streamPort, proxyPort);
  try {
    const url = `http://127.0.0.1:${proxyPort}${pathFor('fetchHumanEvaluation', { evaluation_id: 'huge' })}`;
    await waitForUrl(`http://127.0.0.1:${proxyPort}/elsewhere`, proxy, false);
    const idle = rssMib(proxy.pid as number);
    const bytes = await drain(url);
    const once = rssMib(proxy.pid as number);
    await drain(url);
    const twice = rssMib(proxy.pid as number);
    const size = (bytes / 1024 / 1024).toFixed(0);
    return (
      `proxy RSS: ${idle.toFixed(0)} MiB idle, ${once.toFixed(0)} MiB after streaming one ${size} MiB ` +
      `answer through, ${twice.toFixed(0)} MiB after a second`
    );
  } finally {
    proxy.kill('SIGTERM');
    target.kill('SIGTERM');
  }
}

/** A valid HumanEvaluation of at least 10 KiB: the schema example's shape with many variants, all arrays one length. */
function tenKilobyteRecord(): string {
  const base = generators.HumanEvaluation('bench-proxy', { id }) as unknown as Record<string, string[]>;
  const keys = ['variant_ids', 'variant_names', 'variants_revision_ids', 'revisions'];
  const record = { ...base };
  for (let count = 1; JSON.stringify(record).length < 10 * 1024; count++) {
    for (const key of keys)
      record[key] = Array.from({ length: count }, (_, index) => `${(base[key] as string[])[0]}-${index}`);
  }
  if (!validate('HumanEvaluation', record).valid) throw new Error('the bench record does not validate');
  return JSON.stringify(record);
}

/** `ok`: wait for a 2xx; otherwise any answer at all will do. */
async function waitForUrl(url: string, child: ChildProcess, ok = true): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (
      await fetch(url).then(
        (res) => !ok || res.ok,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`nothing answers at ${url}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One GET, timed from sending to the last byte. */
function timedGet(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { agent }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () =>
        res.statusCode === 200
          ? resolve(performance.now() - started)
          : reject(new Error(`${url} answered ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'evalkit-bench-proxy-'));
  const bodyFile = join(dir, 'record.json');
  const body = tenKilobyteRecord();
  writeFileSync(bodyFile, body);
  const targetPort = await freePort();
  const proxyPort = await freePort();
  const target = spawn(process.execPath, [serversScript, 'http', String(targetPort), bodyFile], { stdio: 'inherit' });
  const proxy = startProxy(targetPort, proxyPort);
  try {
    const path = pathFor('fetchHumanEvaluation', { evaluation_id: id });
    const direct = `http://127.0.0.1:${targetPort}${path}`;
    const proxied = `http://127.0.0.1:${proxyPort}${path}`;
    await waitForUrl(direct, target);
    await waitForUrl(proxied, proxy);
    for (let index = 0; index < warmup; index++) {
      await timedGet(direct);
      await timedGet(proxied);
    }
    const times = { direct: [] as number[], proxied: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      for (let index = 0; index < perSide / rounds; index++) times.direct.push(await timedGet(direct));
      for (let index = 0; index < perSide / rounds; index++) times.proxied.push(await timedGet(proxied));
    }
    const direct50 = percentile(times.direct, 50);
    const direct99 = percentile(times.direct, 99);
    const proxied50 = percentile(times.proxied, 50);
    const proxied99 = percentile(times.proxied, 99);
    const ms = (value: number) => value.toFixed(3).padStart(8);
    process.stdout.write(
      [
        `evalkit proxy bench: GET of a ${(body.length / 1024).toFixed(1)} KiB HumanEvaluation, ${perSide} requests ` +
          `per side, one at a time, keep-alive (node ${process.version}, ${process.platform})`,
        `                          p50 ms    p99 ms`,
        `direct (bare node:http) ${ms(direct50)}  ${ms(direct99)}`,
        `through evalkit proxy   ${ms(proxied50)}  ${ms(proxied99)}`,
        `added by the proxy      ${ms(proxied50 - direct50)}  ${ms(proxied99 - direct99)}   ` +
          `(target: p50 added < 2 ms: ${proxied50 - direct50 < 2 ? 'met' : 'NOT met'})`,
        await memoryRow(),
        '',
      ].join('\n'),
    );
  } finally {
    agent.destroy();
    proxy.kill('SIGTERM');
    target.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
