import type { IncomingHttpHeaders } from 'node:http';
import type { Exchange } from '../../http/exchange.js';
import type { RateLimitedCounts } from '../report/model.js';
import type { Pacer } from './pacing.js';

/** Without a Retry-After, waits double from this (1 s, 2 s, 4 s, …), as clients back off from an unstated limit. */
const firstBackoffMs = 1000;
/** A Retry-After of 0 or in the past still waits this long, so a confused deployment is not hammered. */
const minimumWaitMs = 100;

/**
 * RFC 9110 §10.2.3: delay-seconds or an HTTP-date (the IMF-fixdate senders must use, `Wed, 21 Oct 2015 07:28:00
 * GMT`); milliseconds to wait from `now`, or undefined when the header is absent or neither.
 */
export function retryAfterMs(headers: IncomingHttpHeaders, now = Date.now()): number | undefined {
  const text = headers['retry-after']?.trim();
  if (text === undefined) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = /GMT$/.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A wait as a person reads it: seconds up to 10 minutes, then minutes, hours or days (a date may be years off). */
function waitText(ms: number): string {
  if (ms < 600_000) return `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;
  const [unit, size] = ms < 7_200_000 ? ['min', 60_000] : ms < 172_800_000 ? ['h', 3_600_000] : ['days', 86_400_000];
  return `${Math.round(ms / size)} ${unit}`;
}

/**
 * Sends from a pacer slot the caller holds and, on a 429, pauses the pacer for what the answer asks and sends again,
 * as long as the waits of this request add up to no more than `timeoutMs` (the per-request timeout). A wait beyond
 * it makes the exchange a timeout, named as such. A 429 that `mustJudge` flags (one echoing a secret) is returned as
 * it is: a retry would hide it from the checks. Undefined when the pacer was halted during a wait.
 */
export async function sendRetryingAfter429(
  pacer: Pacer,
  attempt: () => Promise<Exchange>,
  timeoutMs: number,
  counts: RateLimitedCounts,
  mustJudge: (exchange: Exchange) => boolean,
): Promise<Exchange | undefined> {
  let waited = 0;
  for (let retry = 0; ; retry++) {
    const exchange = await attempt();
    if (exchange.failure || exchange.status !== 429 || mustJudge(exchange)) return exchange;
    const asked = retryAfterMs(exchange.headers);
    const wait = Math.max(minimumWaitMs, asked ?? firstBackoffMs * 2 ** retry);
    if (waited + wait > timeoutMs) {
      counts.beyondTimeout++;
      const why =
        asked === undefined ? `no Retry-After, backing off ${waitText(wait)}` : `Retry-After ${waitText(asked)}`;
      return {
        ...exchange,
        failure: {
          kind: 'timeout',
          message:
            `answered 429 Too Many Requests (${why}): waiting would pass the ${timeoutMs} ms timeout ` +
            '(raise --timeout or set --rate-limit)',
        },
      };
    }
    waited += wait;
    counts.retried++;
    counts.waitedMs += pacer.pause(wait);
    if (!(await pacer.nextStart())) return undefined;
  }
}
