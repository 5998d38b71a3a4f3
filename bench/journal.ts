import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { controlRoom } from '../mock/control/control-room.js';
import { mockCore } from '../mock/core/handle.js';
import { resolveMockOptions } from '../mock/core/options.js';

/**
 * What recording a GET in the control room's journal costs, in one process with no network: the core answers the
 * same GET with and without recording, in alternate rounds, and the difference of CPU time per request is the
 * journal's (garbage collection of the entries it keeps included). On a loaded machine this figure holds where the
 * journal on / off rows of bench:mock, measured over HTTP in other processes, swing by several percent.
 * Usage: npm run bench:journal [-- REQUESTS_PER_ROUND]   (default 300000)
 */
const requests = Number(process.argv[2] ?? 300_000);
const rounds = 4;
const config = resolveMockOptions({});
const core = mockCore(config);
const room = controlRoom({ scenarios: config.scenarios, log: () => {} });
const socket = new Socket();

/** A request as node:http makes it, new each time as on a server: its garbage is part of the picture. */
function incoming(index: number): IncomingMessage {
  const req = new IncomingMessage(socket);
  req.method = 'GET';
  req.url = '/human-evaluations/6637c0a25368ef07b03a64cd';
  req.headers = { host: '127.0.0.1:4010', connection: 'keep-alive', 'user-agent': `bench-${index & 7}` };
  return req;
}

function cpuPerRequest(record: boolean): number {
  const before = process.cpuUsage();
  for (let index = 0; index < requests; index++) {
    const req = incoming(index);
    const arrived = Date.now();
    const started = performance.now();
    const answer = core.handle({ method: 'GET', url: req.url as string, headers: req.headers });
    if (answer instanceof Promise) throw new Error('a GET with no latency is answered at once');
    if (record) room.record?.({ req, arrived, durationMs: performance.now() - started, body: undefined, answer });
  }
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / requests;
}

let off = 0;
let on = 0;
for (let round = 0; round < rounds; round++) {
  off += cpuPerRequest(false) / rounds;
  on += cpuPerRequest(true) / rounds;
}
process.stdout.write(
  `bench:journal: ${rounds} rounds of ${requests} GETs each way (journal of 500)\n` +
    `core.handle alone: ${off.toFixed(2)} µs CPU/request\n` +
    `core.handle + journal record: ${on.toFixed(2)} µs CPU/request\n` +
    `the journal: ${(on - off).toFixed(2)} µs CPU/request\n`,
);
