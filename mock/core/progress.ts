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
 * EVALUATION_INITIALIZED until t0 + MS, EVALUATION_STARTED until t0 + 2·MS, then in its final state; it only moves
 * forward (a final state of INITIALIZED or STARTED is reached and kept). Each record's
 * t0 is kept in an LRU map of `followedRecords` entries: memory stays flat under any number of ids (a record dropped
 * from it starts over when it is asked for again), and a clock set back before t0 starts it over too.
 */
export class Progress {
  private readonly firstServed: LruCache<string, number>;

  /** `capacity`: the records followed at once; the least recently served past it starts over. */
  constructor(capacity = followedRecords) {
    this.firstServed = new LruCache<string, number>(capacity);
  }

  /** The phase of record `id` at `moment` (µs), each phase `phaseMs` long, ending in `final`. */
  phaseOf(id: string, moment: number, phaseMs: number, final: EvaluationState): Phase {
    let createdAt = this.firstServed.get(id);
    if (createdAt === undefined || createdAt > moment) {
      createdAt = moment;
      this.firstServed.set(id, createdAt);
    }
    const steps = lifecycleTo(final);
    // Each phase but the last lasts phaseMs; the last (the final state) holds from then on.
    const index = Math.min(Math.floor((moment - createdAt) / (phaseMs * 1000)), steps.length - 1);
    const state = steps[index] as EvaluationState;
    const since = createdAt + index * phaseMs * 1000;
    const next = steps[index + 1];
    return { state, createdAt, since, ...(next && { next: { state: next, at: since + phaseMs * 1000 } }) };
  }
}

/** The states a run passes through on its way, in the order the service moves it: never back. */
const movingStates: readonly EvaluationState[] = ['EVALUATION_INITIALIZED', 'EVALUATION_STARTED'];

/**
 * The phases of a record that ends in `final`: INITIALIZED, STARTED, then `final`; a `final` that is one of the moving
 * states ends the list there, so a record asked to stay INITIALIZED never starts and one asked to stay STARTED never
 * moves again (its updated_at with it).
 */
function lifecycleTo(final: EvaluationState): readonly EvaluationState[] {
  const at = movingStates.indexOf(final);
  return at >= 0 ? movingStates.slice(0, at + 1) : [...movingStates, final];
}
