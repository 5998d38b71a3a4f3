import type { Exchange } from './http-client.js';
import type { Pacer } from './pacing.js';

/** Sends one request from the pacer slot it is run in. */
type Send = () => Promise<Exchange | undefined>;

/**
 * Answers fetched ahead of the checks that judge them. Checks judge one answer at a time in a fixed order, and
 * findings, reproductions and shrinking depend on that order; what takes time is waiting for answers. So a run
 * sends the requests it is about to judge all at once, as fast as the pacer lets it, and each check then takes
 * its answer from here: the report is the same at any concurrency.
 *
 * After `maxTimeouts` timed-out answers the pacer is halted: a hanging deployment would make every request still
 * queued cost a full timeout. What was not sent is undefined.
 */
export class SendAhead {
  private readonly answers = new Map<string, Array<Exchange | undefined>>();
  private timeouts = 0;
  private sentCount = 0;

  constructor(
    private readonly pacer: Pacer,
    private readonly maxTimeouts: number,
  ) {}

  /** Requests sent, answered or not; requests the pacer held back are not. */
  get sent(): number {
    return this.sentCount;
  }

  /** Sends every request, keeping each answer under its key for `take`; resolves once all are in. */
  async sendAll(requests: ReadonlyArray<{ key: string; send: Send }>): Promise<void> {
    const answers = await Promise.all(requests.map(({ send }) => this.send(send)));
    requests.forEach(({ key }, index) => {
      const list = this.answers.get(key) ?? [];
      list.push(answers[index]);
      this.answers.set(key, list);
    });
  }

  /** The oldest answer kept under `key`, or one sent now when none is. */
  take(key: string, send: Send): Promise<Exchange | undefined> {
    const list = this.answers.get(key);
    if (list === undefined || list.length === 0) return this.send(send);
    const answer = list.shift();
    if (list.length === 0) this.answers.delete(key);
    return Promise.resolve(answer);
  }

  /** In a slot of the pacer, which is halted before the slot is handed on: no request starts after the last timeout. */
  private send(send: Send): Promise<Exchange | undefined> {
    return this.pacer.run(async () => {
      const exchange = await send();
      if (exchange === undefined) return undefined;
      this.sentCount++;
      if (exchange.failure?.kind === 'timeout' && ++this.timeouts >= this.maxTimeouts) this.pacer.halt();
      return exchange;
    });
  }
}
