import { setTimeout as sleep } from 'node:timers/promises';
import type { PacingReport } from '../report/model.js';

/** How hard a run may press a deployment: requests in flight at once, and started per second. */
export type PacingOptions = Omit<PacingReport, 'rateLimited'>;

/**
 * Staging servers are shared by a team, so the default stays below what one person's browser already does to them:
 * browsers open at most 6 connections to one origin (HTTP/1.1), and 4 in flight keeps a contract run under that
 * while running 3.6 times the property cases per second of 1 in flight against a 50 ms deployment (docs/contract.md).
 */
export const defaultConcurrency = 4;
export const maxConcurrency = 64;

/** `5`, `5/s`, `0.5/s`: requests per second; undefined when the text is none of these or not above zero. */
export function parseRate(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:\/\s*s)?\s*$/.exec(text);
  const rate = match ? Number(match[1]) : Number.NaN;
  return rate > 0 && rate <= 10_000 ? rate : undefined;
}

/**
 * Starts tasks no faster than the pacing allows: at most `concurrency` at once, starts spaced by 1/rate seconds,
 * none during a pause a 429 asked for. Once halted it starts nothing more and answers undefined instead.
 */
export class Pacer {
  private active = 0;
  private readonly queue: Array<() => void> = [];
  private startAt = 0;
  private resumeAt = 0;
  private halted = false;
  private readonly spacingMs: number;

  /** `now` is a monotonic clock in ms; tests pass one they move by hand, so no assertion races the machine's load. */
  constructor(
    readonly options: PacingOptions,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.spacingMs = options.ratePerSecond ? 1000 / options.ratePerSecond : 0;
  }

  /** Runs `task` in a slot of its own once it may start; a task that sends again calls `nextStart` first. */
  async run<T>(task: () => Promise<T>): Promise<T | undefined> {
    await this.acquire();
    try {
      return (await this.nextStart()) ? await task() : undefined;
    } finally {
      this.release();
    }
  }

  /**
   * Nothing starts for `ms`: a Retry-After speaks to the client as a whole, not to the one request it answered.
   * Answers how much longer sending is now paused than it already was: pauses asked for together overlap.
   */
  pause(ms: number): number {
    const now = this.now();
    const until = now + ms;
    const longer = Math.max(0, until - Math.max(this.resumeAt, now));
    this.resumeAt = Math.max(this.resumeAt, until);
    return Math.round(longer);
  }

  halt(): void {
    this.halted = true;
  }

  private acquire(): Promise<void> {
    if (this.active < this.options.concurrency) {
      this.active++;
      return Promise.resolve();
    }
    // The slot is handed over by release(), so `active` never dips and a newcomer cannot jump the queue.
    return new Promise((resolve) => this.queue.push(resolve));
  }

  private release(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.active--;
  }

  /** Resolves when the rate and any pause let one more request start: true, or false once halted. */
  async nextStart(): Promise<boolean> {
    for (;;) {
      if (this.halted) return false;
      const now = this.now();
      const at = Math.max(this.startAt, this.resumeAt);
      if (at <= now) {
        this.startAt = now + this.spacingMs;
        return true;
      }
      // Re-checked after the wait: a pause may have begun, or another waiter taken this start, meanwhile.
      await sleep(Math.ceil(at - now));
    }
  }
}
