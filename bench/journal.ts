import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { pathFor } from '../api/match.js';
import { controlRoom } from '../mock/control/control-room.js';
import { mockCore } from '../mock/core/handle.js';
import { resolveMockOptions } from '../mock/core/options.js';
import { benchMode, sized } from './quick.js';

/**
 * What recording a GET in the control room's journal costs, in one process with no network: a core nobody observes and
 * one the journal observes answer the same GET in alternate rounds, and the difference of CPU time per request is the
 * journal's (the observer hook and garbage collection of the entries it keeps included). On a loaded machine this
 * figure holds where the journal on / off rows of bench:mock, measured over HTTP in other processes, swing by several
 * percent.
 * Usage: npm run bench:journal [-- REQUESTS_PER_ROUND]   (default 300000)
 */
const requests = Number(benchMode().args[0] ?? sized(300_000, 2_000));
const rounds = 4;
const config = resolveMockOptions({});
const bare = mockCore(config);
const journaled = mockCore(config);
controlRoom({ core: journaled, scenarios: config.scenarios, sessions: config.sessions, log: () => {} });
const path = pathFor('fetchHumanEvaluation', { evaluation_id: '6637c0a25368ef07b03a64cd' });
const socket = new Socket();

/** A request as node:http makes it, new each time as on a server: its garbage is part of the picture. */
function incoming(index: number): IncomingMessage {
  const req = new IncomingMessage(socket);
  req.method = 'GET';
  req.url = path;
  req.headers = { host: '127.0.0.1:4010', connection: 'keep-alive', 'user-agent': `bench-${index & 7}` };
  return req;
}

function cpuPerRequest(record: boolean): number {
  const core = record ? journaled : bare;
  const before = process.cpuUsage();
  for (let index = 0; index < requests; index++) {
    const req = incoming(index);
    const answer = core.handle({ method: 'GET', url: req.url as string, headers: req.headers });
    if (answer instanceof Promise) throw new Error('a GET with no latency is answered at once');
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
    `core.handle, the journal observing: ${on.toFixed(2)} µs CPU/request\n` +
    `the journal: ${(on - off).toFixed(2)} µs CPU/request\n`,
);
