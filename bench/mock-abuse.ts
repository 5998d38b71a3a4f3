import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pathFor } from '../api/match.js';
import { headersTimeoutMs, maxBodyBytes, requestTimeoutMs } from '../mock/core/limits.js';
import { amplificationBody } from './attack-bodies.js';
import { benchMode, sized } from './quick.js';
import { peakRss, root, startServer, type Server } from './server-process.js';
import { percentile } from './stats.js';

/**
 * The mock under the attacks of issue 10, each on a fresh `evalkit mock` process (bench/cpu-probe preloaded):
 * - the 1 MiB amplification body, sent one at a time: the 422's size and problem count, the round trip and the
 *   mock's CPU time per attack; beside it the round trip of the same upload to a bare node:http server that reads the
 *   body and answers the same bytes (the floor: what the upload itself costs on this machine);
 * - 16 of them at once, and 20 attackers that never read their answer: the mock's peak RSS (Linux's VmHWM);
 * - a client sending its body a byte every 5 s: when the mock closes it, under its default time bounds.
 * Usage: npm run bench:mock-abuse [-- skip-slow]   (the slow client takes the full bound, about 30 s; quick mode
 * leaves it out too)
 */
const sequentialAttacks = sized(20, 2);
const concurrentAttacks = sized(16, 2);
const silentAttackers = sized(20, 2);
const slowByteEveryMs = 5_000;
/** When the mock cuts off a slow client, in seconds: its default time bounds. */
const bound = Math.max(headersTimeoutMs, requestTimeoutMs) / 1000;
const mib = 2 ** 20;
const evalkit = join(root, 'bin/evalkit.js');
const serversScript = fileURLToPath(new URL('./servers.js', import.meta.url));
const readyPath = pathFor('fetchHumanEvaluation', { evaluation_id: 'ready' });
const createPath = pathFor('createEvaluations');

const createRequest = {
  app_id: '6637c0a25368ef07b03a64a0',
  evaluators_configs: ['6637c0a25368ef07b03a64d1'],
  testset_id: '6637c0a25368ef07b03a64e0',
  rate_limit: { batch_size: 10, max_retries: 3, retry_delay: 3, delay_between_batches: 5 },
};
const attack = amplificationBody(createRequest, maxBodyBytes);
const attackItems = attack.split(',').length;

function startMock(): Promise<Server> {
  return startServer((port) => [evalkit, 'mock', '--port', String(port), '--quiet'], readyPath);
}

async function postAttack(server: Server): Promise<{ status: number; bytes: number; problems: number; ms: number }> {
  const start = performance.now();
  const res = await fetch(`${server.url}${createPath}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: attack,
  });
  const body = Buffer.from(await res.arrayBuffer());
  const ms = performance.now() - start;
  return {
    status: res.status,
    bytes: body.length,
    problems: (JSON.parse(body.toString()).detail as unknown[]).length,
    ms,
  };
}

const mb = (bytes: number) => `${(bytes / mib).toFixed(0)} MB`;

/** The attacks in turn, after one warm-up: each answer, and the server's CPU time per attack. */
async function inTurn(
  server: Server,
): Promise<{ answers: Array<Awaited<ReturnType<typeof postAttack>>>; cpuMs: number }> {
  await postAttack(server);
  const before = await server.usage();
  const answers = [];
  for (let i = 0; i < sequentialAttacks; i++) answers.push(await postAttack(server));
  const after = await server.usage();
  return {
    answers,
    cpuMs: (after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / 1000 / sequentialAttacks,
  };
}

async function oneAtATime(): Promise<Array<[string, boolean | undefined]>> {
  const mock = await startMock();
  let floor: Server | undefined;
  let dir: string | undefined;
  try {
    const { answers, cpuMs } = await inTurn(mock);
    // The floor answers the very bytes the mock sent.
    dir = mkdtempSync(join(tmpdir(), 'evalkit-bench-'));
    const answerFile = join(dir, 'answer.json');
    const res = await fetch(`${mock.url}${createPath}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: attack,
    });
    writeFileSync(answerFile, Buffer.from(await res.arrayBuffer()));
    floor = await startServer((port) => [serversScript, 'drain', String(port), answerFile], readyPath);
    const bare = await inTurn(floor);
    const times = answers.map((answer) => answer.ms);
    const bareTimes = bare.answers.map((answer) => answer.ms);
    const largest = Math.max(...answers.map((answer) => answer.bytes));
    const statuses = [...new Set(answers.map((answer) => answer.status))].join(', ');
    return [
      [
        `1 MiB attack (${attackItems} numbers in variant_ids), ${sequentialAttacks} in turn: status ` +
          `${statuses}, ${answers[0]?.problems} problem(s) listed`,
        undefined,
      ],
      [`422 size: ${largest} bytes at most (target < 64 KB)`, largest < 64 * 1024],
      [
        `round trip, 1 MiB upload included: median ${percentile(times, 50).toFixed(1)} ms, slowest ` +
          `${Math.max(...times).toFixed(1)} ms (target < 50 ms)`,
        Math.max(...times) < 50,
      ],
      [
        `same upload to a bare node:http server (the floor): median ` +
          `${percentile(bareTimes, 50).toFixed(1)} ms, slowest ${Math.max(...bareTimes).toFixed(1)} ms`,
        undefined,
      ],
      [`mock CPU per attack: ${cpuMs.toFixed(1)} ms (bare server: ${bare.cpuMs.toFixed(1)} ms)`, undefined],
    ];
  } finally {
    mock.child.kill('SIGTERM');
    floor?.child.kill('SIGTERM');
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}

async function atOnce(): Promise<[string, boolean]> {
  const server = await startMock();
  try {
    const answers = await Promise.all(Array.from({ length: concurrentAttacks }, () => postAttack(server)));
    const peak = peakRss(server.child.pid as number);
    const largest = Math.max(...answers.map((answer) => answer.bytes));
    return [
      `peak RSS with ${concurrentAttacks} attacks at once: ${mb(peak)} (target < 200 MB; largest 422 ${largest} bytes)`,
      peak < 200 * mib,
    ];
  } finally {
    server.child.kill('SIGTERM');
  }
}

function openSocket(server: Server): Promise<Socket> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

async function silentClients(): Promise<[string, boolean]> {
  const server = await startMock();
  const sockets: Socket[] = [];
  try {
    const request =
      `POST ${createPath} HTTP/1.1\r\nHost: mock\r\nContent-Type: ` +
      `application/json\r\nContent-Length: ${attack.length}\r\n\r\n${attack}`;
    for (let i = 0; i < silentAttackers; i++) sockets.push(await openSocket(server));
    // Paused sockets read nothing: the answers stay with the mock and the kernel.
    await Promise.all(
      sockets.map((socket) => {
        socket.pause();
        return new Promise<void>((resolve, reject) =>
          socket.write(request, (error) => (error ? reject(error) : resolve())),
        );
      }),
    );
    // Answered once the mock has worked through the bodies read before it.
    await fetch(`${server.url}${readyPath}`);
    const peak = peakRss(server.child.pid as number);
    return [
      `peak RSS with ${silentAttackers} attackers that never read: ${mb(peak)} (target < 200 MB)`,
      peak < 200 * mib,
    ];
  } finally {
    for (const socket of sockets) socket.destroy();
    server.child.kill('SIGTERM');
  }
}

/** A body sent a byte every 5 s: how long until the mock closes the connection, and what it answered. */
async function slowClient(): Promise<[string, boolean]> {
  const server = await startMock();
  try {
    const socket = await openSocket(server);
    const body = JSON.stringify({ ...createRequest, variant_ids: ['v1'] });
    socket.write(
      `POST ${createPath} HTTP/1.1\r\nHost: mock\r\nContent-Type: application/json\r\nContent-Length: ` +
        `${body.length}\r\n\r\n`,
    );
    const start = performance.now();
    let sent = 0;
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => undefined);
    const timer = setInterval(() => {
      if (!socket.destroyed) socket.write(body[sent++] as string);
    }, slowByteEveryMs);
    await new Promise((resolve) => socket.once('close', resolve));
    clearInterval(timer);
    const seconds = (performance.now() - start) / 1000;
    const status = /^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 'none';
    return [
      `a byte every ${slowByteEveryMs / 1000} s: closed after ${seconds.toFixed(1)} s with ${status} ` +
        `(${sent} body bytes sent; bound ${bound} s, checked each second)`,
      status === '408' && seconds <= bound + 2,
    ];
  } finally {
    server.child.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  const lines: Array<[string, boolean | undefined]> = [...(await oneAtATime()), await atOnce(), await silentClients()];
  if (benchMode().args[0] !== 'skip-slow' && !benchMode().quick) lines.push(await slowClient());
  else
    lines.push([
      `a byte every ${slowByteEveryMs / 1000} s: left out (it waits the mock's ${bound} s bound)`,
      undefined,
    ]);
  process.stdout.write(
    `${lines.map(([text, met]) => `${met === undefined ? 'note  ' : met ? 'met   ' : 'MISSED'} ${text}`).join('\n')}\n`,
  );
}

await main();
