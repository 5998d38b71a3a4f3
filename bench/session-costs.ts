import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pathFor } from '../api/match.js';
import { mockCore } from '../mock/core/handle.js';
import { resolveMockOptions } from '../mock/core/options.js';
import type { MockRequest } from '../mock/core/request-answer.js';
import { maxSessions, sessionRoute } from '../mock/core/sessions.js';
import { median } from './stats.js';

/** What sessions cost, measured in this process: the lookup every request pays, and the memory names can take. */
export interface SessionCosts {
  /** The lookup on a request naming no session, and the whole in-process GET it is part of, in ns. */
  lookupNs: number;
  getNs: number;
  /** Heap growth after `names` requests each naming a new session. */
  names: number;
  heapGrowthMb: number;
  kept: number;
}

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** A browser's GET as the node adapter gives it: headers, cookies of the app, and no session. */
const request: MockRequest = {
  method: 'GET',
  url: pathFor('fetchHumanEvaluation', { evaluation_id: '6637c0a25368ef07b03a64cd' }),
  headers: {
    host: '127.0.0.1:4010',
    accept: 'application/json',
    'user-agent': 'Mozilla/5.0',
    cookie: 'theme=dark; csrftoken=abc123',
  },
};

/** ns per call of `run`, the median of rounds of `count` calls each (the loop's own cost in it). */
function nsPer(run: () => unknown, count: number): number {
  const rounds: number[] = [];
  for (let round = 0; round < 5; round++) {
    const started = process.hrtime.bigint();
    for (let index = 0; index < count; index++) run();
    rounds.push(Number(process.hrtime.bigint() - started) / count);
  }
  return median(rounds);
}

export function sessionCosts(count: number, names: number): SessionCosts {
  const config = resolveMockOptions({});
  const core = mockCore(config);
  core.handle(request);
  let sink = 0;
  const lookupNs =
    nsPer(() => (sink += sessionRoute(request.url, request.headers) === undefined ? 1 : 0), count) -
    nsPer(() => (sink += request.url.length > 0 ? 1 : 0), count);
  const getNs = nsPer(() => core.handle(request), count);
  collect();
  const before = process.memoryUsage().heapUsed;
  for (let index = 0; index < names; index++) core.handle({ ...request, url: `/__sessions/n-${index}${request.url}` });
  collect();
  const heapGrowthMb = (process.memoryUsage().heapUsed - before) / 2 ** 20;
  if (sink === 0) throw new Error('the lookup was never run');
  return { lookupNs, getNs, names, heapGrowthMb, kept: Math.min(config.sessions.list().length, maxSessions) };
}
