import type { EvaluationState } from '../../generators/vocabulary.js';
import { LruCache } from '../../http/lru.js';

/** Records whose first-served moment is kept: a UI's working set, bounded whatever ids clients send. */
export const followedRecords = 10_000;

/** Where a followed record stands at a moment: its state, since when (µs), and when it moves on, if it does. */
export interface Phase {
  state: EvaluationState;
  /** The moment it was first served: the run's creation, as the poller saw it. */
  createdAt: number;
  since: number;
  next?: { state: EvaluationState; at: number };
}

/**
 * The lifecycle of human evaluations as a polling UI sees the real service move them: first served at t0, a record is
 * EVALUATION_INITIALIZED until t0 + MS, EVALUATION_STARTED until t0 + 2·MS, then in its final state. Each record's
 * t0 is kept in an LRU map of `followedRecords` entries: memory stays flat under any number of ids (a record dropped
 * from it starts over when it is asked for again), and a clock set back before t0 starts it over too.
 */
export class Progress {
  private readonly firstServed = new LruCache<string, number>(followedRecords);

  /** The phase of record `id` at `moment` (µs), each phase `phaseMs` long, ending in `final`. */
  phaseOf(id: string, moment: number, phaseMs: number, final: EvaluationState): Phase {
    let createdAt = this.firstServed.get(id);
    if (createdAt === undefined || createdAt > moment) {
      createdAt = moment;
      this.firstServed.set(id, createdAt);
    }
    const step = phaseMs * 1000;
    const started = createdAt + step;
    const ended = createdAt + 2 * step;
    if (moment < started)
      return {
        state: 'EVALUATION_INITIALIZED',
        createdAt,
        since: createdAt,
        next: { state: 'EVALUATION_STARTED', at: started },
      };
    if (moment < ended)
      return { state: 'EVALUATION_STARTED', createdAt, since: started, next: { state: final, at: ended } };
    return { state: final, createdAt, since: ended };
  }
}
