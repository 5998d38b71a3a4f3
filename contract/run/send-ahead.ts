import type { Exchange } from '../../http/exchange.js';
import type { Pacer } from './pacing.js';

/** Sends one request from the pacer slot it is run in. */
type Send = () => Promise<Exchange | undefined>;

/** A request sent ahead: started once a place in the window is free, or at once when its check asks for it first. */
interface Ahead {
  send: Send;
  answer?: Promise<Exchange | undefined>;
}

/**
 * Answers fetched ahead of the checks that judge them. Checks judge one answer at a time in a fixed order, and
 * findings, reproductions and shrinking depend on that order; what takes time is waiting for answers. So a run
 * queues the requests it is about to judge, sends them as fast as the pacer lets it, and each check then takes
 * its answer from here: the report is the same at any concurrency.
 *
 * At most `window` answers (the concurrency) are held, in flight or waiting to be judged: a hostile deployment's
 * 4 MB answers to a thousand property cases must not all sit in memory at once. Taking an answer frees its place for
 * the next request in the queue; a request whose check asks for it before its turn is sent at once.
 *
 * After `maxTimeouts` timed-out answers the pacer is halted: a hanging deployment would make every request still
 * queued cost a full timeout. What was not sent is undefined.
 */
export class SendAhead {
  private readonly byKey = new Map<string, Ahead[]>();
  private readonly queue: Ahead[] = [];
  private held = 0;
  private timeouts = 0;
  /** What the last timed-out answer said: a hang, or a 429 whose wait would pass the timeout. */
  private lastTimeoutMessage: string | undefined;
  private sentCount = 0;
  private readonly window: number;

  constructor(
    private readonly pacer: Pacer,
    private readonly maxTimeouts: number,
  ) {
    this.window = pacer.options.concurrency;
  }

  /** Why the run stops, once `maxTimeouts` answers timed out: the count, and what the last of them said. */
  get stopReason(): string {
    const last = this.lastTimeoutMessage === undefined ? '' : ` (the last: ${this.lastTimeoutMessage})`;
    return `stopped after ${this.maxTimeouts} requests timed out${last}`;
  }

  /** Requests sent, answered or not; requests the pacer held back are not. */
  get sent(): number {
    return this.sentCount;
  }

  /** Queues every request under its key for `take`, and starts as many as the window holds. */
  async sendAll(requests: ReadonlyArray<{ key: string; send: Send }>): Promise<void> {
    for (const { key, send } of requests) {
      const entry: Ahead = { send };
      this.queue.push(entry);
      const list = this.byKey.get(key) ?? [];
      list.push(entry);
      this.byKey.set(key, list);
    }
    this.pump();
  }

  /** The oldest answer queued under `key`, or one sent now when none is. */
  take(key: string, send: Send): Promise<Exchange | undefined> {
    const list = this.byKey.get(key);
    const entry = list?.shift();
    if (list && list.length === 0) this.byKey.delete(key);
    if (entry === undefined) return this.send(send);
    if (entry.answer === undefined) {
      // Asked for before its turn: sent now, outside the window.
      this.queue.splice(this.queue.indexOf(entry), 1);
      return this.send(entry.send);
    }
    return entry.answer.then((answer) => {
      this.held--;
      this.pump();
      return answer;
    });
  }

  private pump(): void {
    while (this.held < this.window && this.queue.length > 0) {
      const entry = this.queue.shift() as Ahead;
      this.held++;
      entry.answer = this.send(entry.send);
    }
  }

  /** In a slot of the pacer, which is halted before the slot is handed on: no request starts after the last timeout. */
  private send(send: Send): Promise<Exchange | undefined> {
    return this.pacer.run(async () => {
      const exchange = await send();
      if (exchange === undefined) return undefined;
      this.sentCount++;
      if (exchange.failure?.kind === 'timeout') {
        this.lastTimeoutMessage = exchange.failure.message;
        if (++this.timeouts >= this.maxTimeouts) this.pacer.halt();
      }
      return exchange;
    });
  }
}
