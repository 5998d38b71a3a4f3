import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Options, type RequestSpec, type Result } from 'autocannon';
import { pathFor } from '../api/match.js';
import { renderOpenApi } from '../api/openapi.js';
import { root, startServer, type Server } from './server-process.js';
import { benchMode, sized } from './quick.js';
import { median } from './stats.js';
import { sessionCosts } from './session-costs.js';

/**
 * The mock (its request journal on, as by default, and off) against a bare Express route, a bare node:http server and
 * Prism (static and dynamic), in one run.
 * Every server runs in a process of its own with bench/cpu-probe preloaded, so CPU time per request comes from each
 * server's own accounting (process.cpuUsage), not from req/s, which this shared machine makes swing by 2x.
 * Each measure runs for a fixed time (autocannon ends request-count runs on whole-second ticks, which skews req/s),
 * but for the largest create, which runs a count of requests: a request cut off at the end of a timed run would leave
 * its CPU time, tens of milliseconds, in the measure without counting.
 * Usage: npm run bench:mock [-- SECONDS_PER_MEASURE [mixed]]   (default 5; `mixed`: the mixed-load RSS alone)
 */
const seconds = Number(benchMode().args[0] ?? sized(5, 0.2));
const mixedOnly = benchMode().args[1] === 'mixed';
const warmupSeconds = sized(1, 0.1);
/**
 * Quick mode counts requests rather than time: a fifth of a second on a loaded machine can see no request answered,
 * and a row of zero requests has no CPU per request to print.
 */
const quickCount = sized<number | undefined>(undefined, 100);
/**
 * How often autocannon looks whether a run is over: its default of a second would make every quick measure last one.
 */
const pace = sized({}, { sampleInt: 100 });
/** The mock's RSS is read once it has served this many requests. */
const memoryCheckRequests = sized(100_000, 300);
const connections = 10;
const cappedHeapMb = 96;
/** Rounds of each paired measure (two servers or two loads, back to back). */
const pairedRounds = sized(3, 1);
const serversScript = fileURLToPath(new URL('./servers.js', import.meta.url));
const evalkit = join(root, 'bin/evalkit.js');
const prismCli = join(root, 'node_modules/@stoplight/prism-cli/dist/index.js');

const id = '6637c0a25368ef07b03a64cd';
const fetchPath = (evaluationId: string) => pathFor('fetchHumanEvaluation', { evaluation_id: evaluationId });
const createPath = pathFor('createEvaluations');
const getPath = fetchPath(id);
const createBody = JSON.stringify({
  app_id: '6637c0a25368ef07b03a64a0',
  variant_ids: ['6637c0a25368ef07b03a64b1', '6637c0a25368ef07b03a64b2'],
  evaluators_configs: ['6637c0a25368ef07b03a64d1', '6637c0a25368ef07b03a64d2', '6637c0a25368ef07b03a64d3'],
  testset_id: '6637c0a25368ef07b03a64e0',
  rate_limit: { batch_size: 10, max_retries: 3, retry_delay: 3, delay_between_batches: 5 },
  lm_providers_keys: { OPENAI_API_KEY: '<PROVIDER_KEY>' },
});
/** What to send; `amount`: a count of requests (and a tenth of it to warm up), instead of a time. */
type Load = RequestSpec & { path: string; amount?: number };
const post: Load = {
  method: 'POST',
  path: createPath,
  headers: { 'content-type': 'application/json' },
  body: createBody,
};
const get: Load = { method: 'GET', path: getPath };
let fresh = 0;
/** Every request a new id: the mock generates and serializes each body (the LRU cache never hits). */
const getNewIds: Load = {
  method: 'GET',
  path: fetchPath('bench'),
  setupRequest: (request) => ({ ...request, path: fetchPath(`bench-${fresh++}`) }),
};

const createRequest = JSON.parse(createBody) as Record<string, unknown>;
/**
 * The mock's limit on each list of a create (mock/core/limits.ts, docs/mock.md). The bench sends one more of each
 * too and expects a 422, so a moved limit shows here rather than leaving this figure about a smaller request.
 */
const listLimit = 100;
/** `count` distinct ObjectIds, `prefix` (16 hex digits) telling the lists apart. */
const objectIds = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${prefix}${index.toString(16).padStart(8, '0')}`);
function createOf(variants: number, configs: number, amount?: number): Load {
  const body = JSON.stringify({
    ...createRequest,
    variant_ids: objectIds('6637c0a25368ef07', variants),
    evaluators_configs: objectIds('6637c0a25368ef08', configs),
  });
  return { ...post, body, ...(amount === undefined ? {} : { amount }) };
}
const largestCreate = createOf(listLimit, listLimit, sized(200, 3));
const smallestCreate = createOf(1, 1);
let mixedCount = 0;
/**
 * The mixed load of issue 10, in turn: a new id, a valid POST of 1 to 20 variants, a 404, a 422 listing 1 to 100
 * problems, a valid POST carrying up to 63 KiB. Every size varies, so no answer is served from a cache twice.
 */
function mixedRequest(n: number): RequestSpec {
  const round = Math.floor(n / 5);
  const json = (body: Record<string, unknown>): RequestSpec => ({
    method: 'POST',
    path: createPath,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...createRequest, ...body }),
  });
  switch (n % 5) {
    case 0:
      return { method: 'GET', path: fetchPath(`mixed-${n}`) };
    case 1:
      return json({
        app_id: `app-${n}`,
        variant_ids: Array.from({ length: (round % 20) + 1 }, (_, i) => `variant-${n}-${i}`),
      });
    case 2:
      return { method: 'GET', path: `/no-such-operation/${n}` };
    case 3:
      return json({ variant_ids: Array.from({ length: (round % 100) + 1 }, (_, i) => i) });
    default:
      return json({ app_id: `app-${n}`, correct_answer_column: 'x'.repeat((round % 64) * 1024) });
  }
}
const mixed: Load = {
  method: 'GET',
  path: '/',
  setupRequest: (request) => ({ ...request, ...mixedRequest(mixedCount++) }),
};

/** Autocannon's options for a load: the path goes in the URL, a per-request rewrite in `requests`. */
function loadOptions(url: string, { path, setupRequest, amount: _, ...request }: Load): Options {
  return setupRequest
    ? { url, connections, requests: [{ ...request, setupRequest }], ...pace }
    : { url: `${url}${path}`, connections, ...request, ...pace };
}

/** A warm-up run (`share` of a count) or a measured one: for a time, or for the load's count of requests. */
function runFor(load: Load, share = 1): Pick<Options, 'amount' | 'duration' | 'connections'> {
  const count = load.amount ?? quickCount;
  if (count === undefined) return { duration: share === 1 ? seconds : warmupSeconds };
  const amount = Math.max(1, Math.round(count * share));
  // autocannon refuses fewer requests than connections.
  return { amount, connections: Math.min(connections, amount) };
}

interface Row {
  name: string;
  /** Warm-up requests included: what the server has served for this row. */
  sent: number;
  requests: number;
  rps: number;
  p99: number;
  cpuMs: number;
  failures: number;
}

async function measure(name: string, server: Server, load: Load): Promise<Row> {
  const warmup = await autocannon({ ...loadOptions(server.url, load), ...runFor(load, 0.1) });
  const before = await server.usage();
  const result: Result = await autocannon({ ...loadOptions(server.url, load), ...runFor(load) });
  const after = await server.usage();
  const cpuMicros = after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system;
  const row = {
    name,
    sent: warmup.requests.total + result.requests.total,
    requests: result.requests.total,
    // requests.average is a mean of whole-second buckets, coarse over a few seconds; this is the exact rate.
    rps: result.requests.total / result.duration,
    p99: result.latency.p99,
    cpuMs: cpuMicros / 1000 / result.requests.total,
    failures: result.errors + result.timeouts + result.non2xx,
  };
  process.stderr.write(`  ${name}: ${row.rps.toFixed(0)} req/s, ${row.cpuMs.toFixed(3)} ms CPU/request\n`);
  return row;
}

interface Paired {
  /** The median of the rounds' CPU ratios, first / second. */
  ratio: number;
  ratios: number[];
  /** Each side's rounds summed (CPU per request weighted by each round's requests). */
  rows: [Row, Row];
}

/** One side of a paired measure: its row's name, the server, what it is sent. */
type Side = [string, Server, Load];

/**
 * Two servers under the same load, or one under two loads, back to back, in each of pairedRounds rounds. A ratio is
 * the figure, and the load of a shared machine swings between measures minutes apart: each round's ratio is taken,
 * and their median reported.
 */
async function paired(first: Side, second: Side): Promise<Paired> {
  const rows = [first, second].map(([name]): Row => ({
    name,
    sent: 0,
    requests: 0,
    rps: 0,
    p99: 0,
    cpuMs: 0,
    failures: 0,
  })) as [Row, Row];
  const ratios: number[] = [];
  for (let round = 0; round < pairedRounds; round++) {
    const measured: Row[] = [];
    for (const [index, [name, server, load]] of [first, second].entries()) {
      const row = await measure(`${name} (round ${round + 1})`, server, load);
      const total = rows[index] as Row;
      total.cpuMs = (total.cpuMs * total.requests + row.cpuMs * row.requests) / (total.requests + row.requests);
      total.rps = (total.rps * round + row.rps) / (round + 1);
      total.sent += row.sent;
      total.requests += row.requests;
      total.p99 = Math.max(total.p99, row.p99);
      total.failures += row.failures;
      measured.push(row);
    }
    ratios.push((measured[0] as Row).cpuMs / (measured[1] as Row).cpuMs);
  }
  return { ratio: median(ratios), ratios, rows };
}

/** What one request answers: its status and the bytes of its body. */
async function answer(url: string, load: Load): Promise<{ status: number; bytes: number }> {
  const res = await fetch(`${url}${load.path}`, {
    method: load.method,
    ...(load.headers ? { headers: load.headers } : {}),
    ...(load.body === undefined ? {} : { body: load.body }),
  });
  return { status: res.status, bytes: (await res.arrayBuffer()).byteLength };
}

/** The largest create's answer and the smallest's, and what one more item than the limit in each list gets. */
async function createAnswers(url: string) {
  const overLimit = createOf(listLimit + 1, listLimit + 1);
  return {
    largest: await answer(url, largestCreate),
    smallest: await answer(url, smallestCreate),
    over: await answer(url, overLimit),
  };
}

/** Tops a server's served requests up to memoryCheckRequests with its loads in turn, then reads its RSS. */
async function rssAfterLoad(
  server: Server,
  rows: Row[],
  loads: Load[] = [get, getNewIds, post],
): Promise<{ served: number; rss: number }> {
  let served = rows.reduce((sum, row) => sum + row.sent, 0);
  const share = Math.ceil((memoryCheckRequests - served) / loads.length);
  for (const load of loads) {
    if (share > 0)
      served += (await autocannon({ ...loadOptions(server.url, load), ...runFor({ ...load, amount: share }) })).requests
        .total;
  }
  return { served, rss: (await server.usage()).rss };
}

function table(rows: Row[], floor: number): string {
  const header = ['server', 'requests', 'req/s', 'p99 ms', 'CPU ms/req', 'x bare Express', 'failed'];
  const lines = rows.map((row) => [
    row.name,
    String(row.requests),
    row.rps.toFixed(0),
    row.p99.toFixed(1),
    row.cpuMs.toFixed(3),
    (row.cpuMs / floor).toFixed(2),
    String(row.failures),
  ]);
  const widths = header.map((cell, index) =>
    Math.max(cell.length, ...lines.map((line) => (line[index] as string).length)),
  );
  const format = (cells: string[]) =>
    `| ${cells.map((cell, index) => cell.padEnd(widths[index] as number)).join(' | ')} |`;
  return [format(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...lines.map(format)].join(
    '\n',
  );
}

function formatTargets(targets: Array<[string, boolean | undefined]>): string {
  return targets.map(([text, met]) => `${met === undefined ? 'note  ' : met ? 'met   ' : 'MISSED'} ${text}`).join('\n');
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'evalkit-bench-'));
  const document = join(dir, 'openapi.json');
  writeFileSync(document, renderOpenApi('json'));
  const started: Server[] = [];
  const start = async (args: (port: number) => string[], nodeFlags: string[] = []) => {
    const server = await startServer(args, getPath, nodeFlags);
    started.push(server);
    return server;
  };
  try {
    process.stderr.write(`bench:mock: ${connections} connections, ${seconds} s per measure\n`);
    // In this process, before any server: what sessions cost a request that names none, and memory under many names.
    const sessions = sessionCosts(sized(200_000, 2_000), sized(100_000, 2_000));
    // The mock as users run it: the README's command, logging off.
    const mockArgs = (port: number) => [evalkit, 'mock', '--port', String(port), '--quiet'];
    // A fresh mock for the mixed load, so its RSS is that load's alone.
    const mixedMock = await start(mockArgs);
    const mixedMemory = await rssAfterLoad(mixedMock, [], [mixed]);
    mixedMock.child.kill('SIGTERM');
    const mixedTarget = [
      `mock RSS after ${Math.round(mixedMemory.served / 1000)}k mixed requests (new ids, POSTs of varied ` +
        `size, 404s, 422s): ${(mixedMemory.rss / 2 ** 20).toFixed(0)} MB (target <= 150 MB)`,
      mixedMemory.rss <= 150 * 2 ** 20,
    ] as [string, boolean];
    if (mixedOnly) {
      process.stdout.write(`${formatTargets([mixedTarget])}\n`);
      return;
    }
    const mock = await start(mockArgs);
    // The bare servers answer the very bytes the mock sends for this id.
    const bodyFile = join(dir, 'human-evaluation.json');
    writeFileSync(bodyFile, Buffer.from(await (await fetch(`${mock.url}${getPath}`)).arrayBuffer()));
    const bareExpressServer = await start((port) => [serversScript, 'express', String(port), bodyFile]);
    // The GET target is a ratio, and the load of a shared machine swings between measures minutes apart: each round
    // measures the mock and the bare route back to back, and the median of the rounds' ratios is the figure.
    const mockVsBare = await paired(
      ['paired: mock GET (same id)', mock, get],
      ['paired: bare Express route', bareExpressServer, get],
    );
    const rows: Row[] = [];
    const mockRows = [
      await measure('mock GET (same id)', mock, get),
      await measure('mock GET (new id each request)', mock, getNewIds),
      await measure('mock POST (2 variants, 3 configs)', mock, post),
    ];
    const memory = await rssAfterLoad(mock, mockRows);
    mock.child.kill('SIGTERM');
    rows.push(...mockRows);
    // What the control room's journal (on by default) costs: two mocks, journal on and off, measured in turns.
    const journaled = await start(mockArgs);
    const unjournaled = await start((port) => [...mockArgs(port), '--no-journal']);
    const journalCosts = {
      'same id': await paired(
        ['mock GET (same id), journal on', journaled, get],
        ['mock GET (same id), --no-journal', unjournaled, get],
      ),
      'new id': await paired(
        ['mock GET (new id), journal on', journaled, getNewIds],
        ['mock GET (new id), --no-journal', unjournaled, getNewIds],
      ),
    };
    rows.push(...Object.values(journalCosts).flatMap((cost) => cost.rows));
    journaled.child.kill('SIGTERM');
    unjournaled.child.kill('SIGTERM');
    // The largest create against the smallest, on a mock of their own so the RSS figures above stay those of their
    // loads.
    const creator = await start(mockArgs);
    const largest = await createAnswers(creator.url);
    const largestCost = await paired(
      [`mock POST (${listLimit} variants, ${listLimit} configs)`, creator, largestCreate],
      ['mock POST (1 variant, 1 config)', creator, smallestCreate],
    );
    creator.child.kill('SIGTERM');
    rows.push(...largestCost.rows);
    // The same mixed load under a capped old generation: V8 grows the heap lazily under a high allocation rate, so
    // RSS at default flags says little about the live set; this shows what a cap costs in CPU and saves in RSS.
    const capped = await start(mockArgs, [`--max-old-space-size=${cappedHeapMb}`]);
    const cappedRows = [
      await measure(`mock GET (same id), old space ${cappedHeapMb} MB`, capped, get),
      await measure(`mock GET (new id), old space ${cappedHeapMb} MB`, capped, getNewIds),
      await measure(`mock POST, old space ${cappedHeapMb} MB`, capped, post),
    ];
    const cappedMemory = await rssAfterLoad(capped, cappedRows);
    capped.child.kill('SIGTERM');
    rows.push(...cappedRows);
    const bareExpress = await measure('bare Express route', bareExpressServer, get);
    // The floor: what the same runtime and framework reach with no work of the mock's at all.
    const bareMemory = await rssAfterLoad(bareExpressServer, [bareExpress], [get]);
    rows.push(
      bareExpress,
      await measure('bare node:http', await start((port) => [serversScript, 'http', String(port), bodyFile]), get),
    );
    const prismArgs = (dynamic: boolean) => (port: number) => [
      prismCli,
      'mock',
      document,
      '-p',
      String(port),
      '-h',
      '127.0.0.1',
      '-v',
      'silent',
      ...(dynamic ? ['--dynamic'] : []),
    ];
    // Prism takes seconds to start, twice: a quick run leaves it out and says so.
    if (!benchMode().quick) {
      const prismStatic = await start(prismArgs(false));
      rows.push(
        await measure('prism static GET', prismStatic, get),
        await measure('prism static POST', prismStatic, post),
      );
      const prismDynamic = await start(prismArgs(true));
      rows.push(
        await measure('prism dynamic GET', prismDynamic, get),
        await measure('prism dynamic POST', prismDynamic, post),
      );
    }

    const cpu = (name: string) => rows.find((row) => row.name === name)?.cpuMs ?? NaN;
    const mockGet = cpu('mock GET (same id)');
    const mockPost = cpu('mock POST (2 variants, 3 configs)');
    const [largestRow, smallestRow] = largestCost.rows;
    const prismTargets: Array<[string, boolean | undefined]> = benchMode().quick
      ? [['prism static and dynamic: left out in quick mode (Prism takes seconds to start)', undefined]]
      : [
          [
            `prism static GET CPU / mock GET: ${(cpu('prism static GET') / mockGet).toFixed(1)}x (target > 1x)`,
            cpu('prism static GET') > mockGet,
          ],
          [
            `prism dynamic GET CPU / mock GET: ${(cpu('prism dynamic GET') / mockGet).toFixed(1)}x (target >= 7x)`,
            cpu('prism dynamic GET') >= 7 * mockGet,
          ],
          [
            `prism dynamic POST CPU / mock POST: ${(cpu('prism dynamic POST') / mockPost).toFixed(1)}x ` +
              '(target >= 5x)',
            cpu('prism dynamic POST') >= 5 * mockPost,
          ],
        ];
    const targets: Array<[string, boolean | undefined]> = [
      ...Object.entries(journalCosts).map(([id, cost]): [string, boolean] => [
        `mock GET (${id}) CPU, journal on / --no-journal: ${cost.ratio.toFixed(2)}x, median of ` +
          `${cost.ratios.map((ratio) => ratio.toFixed(2)).join(', ')} (target <= 1.1x)`,
        cost.ratio <= 1.1,
      ]),
      [
        `mock GET CPU / bare Express, paired: ${mockVsBare.ratio.toFixed(2)}x, median of ` +
          `${mockVsBare.ratios.map((ratio) => ratio.toFixed(2)).join(', ')} (target <= 1.1x)`,
        mockVsBare.ratio <= 1.1,
      ],
      ...prismTargets,
      [
        `largest create the mock accepts (${listLimit} variant ids x ${listLimit} evaluator configs): ` +
          `${largest.largest.status}, ${largest.largest.bytes} bytes answered (1 x 1: ${largest.smallest.status}, ` +
          `${largest.smallest.bytes} bytes); ${listLimit + 1} x ${listLimit + 1}: ${largest.over.status} ` +
          `(target: 200, and 422 past the limit)`,
        largest.largest.status === 200 && largest.over.status === 422 && largestRow.failures === 0,
      ],
      [
        `largest create CPU / 1 x 1 create, paired: ${largestCost.ratio.toFixed(1)}x, median of ` +
          `${largestCost.ratios.map((ratio) => ratio.toFixed(1)).join(', ')} ` +
          `(${largestRow.cpuMs.toFixed(2)} ms against ${smallestRow.cpuMs.toFixed(3)} ms CPU per request)`,
        undefined,
      ],
      [
        `mock p99 at ${connections} connections: ` +
          `${Math.max(...mockRows.map((row) => row.p99)).toFixed(1)} ms (target < 20 ms)`,
        mockRows.every((row) => row.p99 < 20),
      ],
      [
        `mock RSS after ${Math.round(memory.served / 1000)}k requests: ` +
          `${(memory.rss / 2 ** 20).toFixed(0)} MB (target < 150 MB)`,
        memory.rss < 150 * 2 ** 20,
      ],
      [
        `bare Express route RSS after ${Math.round(bareMemory.served / 1000)}k requests (the floor, for ` +
          `reference): ${(bareMemory.rss / 2 ** 20).toFixed(0)} MB`,
        undefined,
      ],
      mixedTarget,
      [
        `session lookup on a request naming none: ${sessions.lookupNs.toFixed(0)} ns, ` +
          `${((100 * sessions.lookupNs) / (cpu('mock GET (same id)') * 1e6)).toFixed(2)}% of the served GET's CPU ` +
          `(${((100 * sessions.lookupNs) / sessions.getNs).toFixed(1)}% of the core's in-process GET, ` +
          `${(sessions.getNs / 1000).toFixed(1)} µs) (target <= 1%)`,
        sessions.lookupNs <= 0.01 * cpu('mock GET (same id)') * 1e6,
      ],
      [
        `heap after ${sessions.names.toLocaleString('en')} requests each naming a new session: ` +
          `+${sessions.heapGrowthMb.toFixed(1)} MB, ${sessions.kept} sessions kept (target <= 32 MB)`,
        sessions.heapGrowthMb <= 32,
      ],
      [
        `mock RSS after ${Math.round(cappedMemory.served / 1000)}k requests, ` +
          `--max-old-space-size=${cappedHeapMb}: ${(cappedMemory.rss / 2 ** 20).toFixed(0)} MB (target < 150 MB)`,
        cappedMemory.rss < 150 * 2 ** 20,
      ],
    ];
    process.stdout.write(`\n${table(rows, bareExpress.cpuMs)}\n\n${formatTargets(targets)}\n`);
  } finally {
    for (const server of started) server.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
