import { pathFor } from '../api/match.js';
import { build } from '../generators/factories.js';
import { generators } from '../generators/index.js';
import { evaluationStates } from '../generators/vocabulary.js';
import type { Exchange } from '../http/exchange.js';
import { Coverage } from '../contract/judge/coverage.js';
import { Evidence } from '../contract/judge/evidence.js';
import { judgeExchange } from '../contract/judge/judge.js';
import { Observation } from '../contract/judge/observation.js';
import type { Sent } from '../contract/judge/sent.js';
import { Verdicts } from '../contract/judge/verdicts.js';
import { sized } from './quick.js';
import { median } from './stats.js';

/**
 * What counting coverage adds to judging: the same create answers (three Evaluations, every state, filled) judged
 * by the catalogue alone and judged then counted, in the same run; printed as a ratio of the two.
 */

const base = new URL('http://127.0.0.1:4010');
const request = generators.CreateEvaluationRequest('bench', { profile: 'full' }) as Record<string, unknown>;
const bodies = evaluationStates.map((state, index) =>
  JSON.stringify(
    [0, 1, 2].map((variant) => build('Evaluation', { seed: `${index}-${variant}`, state, profile: 'full' })),
  ),
);

function exchange(body: string): Exchange {
  return {
    request: { method: 'POST', url: base, headers: {} },
    status: 200,
    headers: { 'content-type': 'application/json' },
    body,
    bodyBytes: Buffer.byteLength(body),
    redirects: [],
  };
}

const sent: Sent = {
  operation: 'create',
  outgoing: { method: 'POST', path: pathFor('createEvaluations'), body: JSON.stringify(request) },
  role: { kind: 'expected', request },
};

/** Milliseconds to judge `rounds` times every body, and count each when `coverage` is given. */
function judgeAll(rounds: number, coverage?: Coverage): number {
  const verdicts = new Verdicts();
  const evidence = new Evidence(base, [], (text) => text);
  const started = performance.now();
  for (let round = 0; round < rounds; round++)
    for (const body of bodies) {
      const seen = new Observation(sent, exchange(body), []);
      judgeExchange(verdicts, seen, evidence);
      coverage?.observe(seen);
    }
  return performance.now() - started;
}

const rounds = sized(100, 2);
const runs = sized(11, 3);
judgeAll(sized(20, 2), new Coverage());
const judged: number[] = [];
const counted: number[] = [];
// Alternated, so a neighbour's load on a shared machine falls on both alike.
for (let run = 0; run < runs; run++) {
  const coverage = new Coverage();
  if (run % 2 === 0) judged.push(judgeAll(rounds));
  counted.push(judgeAll(rounds, coverage));
  if (run % 2 === 1) judged.push(judgeAll(rounds));
  coverage.report();
}
const exchanges = rounds * bodies.length;
const [alone, withCoverage] = [median(judged), median(counted)];
process.stdout.write(
  `coverage bench: ${exchanges} create answers (3 Evaluations each), median of ${runs}\n` +
    `judged alone            ${alone.toFixed(0).padStart(6)} ms\n` +
    `judged, then counted    ${withCoverage.toFixed(0).padStart(6)} ms  ` +
    `(${(withCoverage / alone).toFixed(2)}× judging alone)\n`,
);
