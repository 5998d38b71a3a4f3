import type { ValidationDetail } from '../core/errors.js';
import type { RequestHeaders } from '../core/request-answer.js';
import type { Fault } from '../core/faults.js';
import type { ResolvedScenario } from '../core/scenarios.js';
import type { JournalBody } from './redaction.js';

/** The default number of requests the journal keeps (`--journal-size`). */
export const defaultJournalSize = 500;
/** The largest `--journal-size`: 500 entries hold at most about 8 MB of bodies, this many at most 1.6 GB. */
export const maxJournalSize = 100_000;
/**
 * Problems kept per entry: a 422 listing thousands adds nothing a developer reads, and would pin its list in memory.
 */
export const journalProblemsCap = 100;

/**
 * One request as the journal keeps it, already redacted: nothing in here may hold a credential. It keeps what the
 * request and answer already hold where it can (the URL, header objects, answer bytes) and shapes the rest only when
 * someone reads the journal; the one cost at recording time is the request body, parsed and redacted by its
 * structure before it is kept, since a credential must never be stored.
 */
export interface JournalRecord {
  /** Set by the journal. */
  id: number;
  /** Epoch milliseconds at arrival. */
  time: number;
  method: string;
  /** The URL as sent; only its path is shown. */
  url: string;
  status: number;
  durationMs: number;
  scenario: ResolvedScenario | undefined;
  fault: Fault | undefined;
  requestHeaders: RequestHeaders;
  requestBody: JournalBody | undefined;
  /** The mock's own headers, none of which is a credential. */
  answerHeaders: Readonly<Record<string, string>>;
  /** At most journalBodyCap bytes of the answer body. */
  answerBody: Uint8Array | undefined;
  answerBytes: number;
  problems: readonly ValidationDetail[] | undefined;
  /**
   * What the mock read otherwise than as sent (MockAnswer.notes), or that it answered a pass-through in the origin's
   * stead; never a value of the request.
   */
  notes: readonly string[] | undefined;
  /** Who answered: the mock, or the origin of `--passthrough` (a request the mock does not serve). */
  served: 'mock' | 'passthrough';
  /** The session the request named (mock/core/sessions.ts); absent for the server's. */
  session?: string;
}

/**
 * The request journal: a ring of the last `capacity` requests, oldest overwritten first, so its memory is bounded
 * whatever the traffic. Framework-free: any adapter records into it.
 */
export class Journal {
  private readonly ring: Array<JournalRecord | undefined>;
  private next = 0;
  private lastId = 0;
  private readonly listeners = new Set<(record: JournalRecord) => void>();

  constructor(readonly capacity: number = defaultJournalSize) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('journal capacity must be a positive integer');
    this.ring = new Array<JournalRecord | undefined>(capacity).fill(undefined);
  }

  /** Keeps a record, giving it the next id. */
  record(record: JournalRecord): JournalRecord {
    record.id = ++this.lastId;
    if (record.problems && record.problems.length > journalProblemsCap)
      record.problems = record.problems.slice(0, journalProblemsCap);
    this.ring[this.next] = record;
    this.next = (this.next + 1) % this.capacity;
    for (const listener of this.listeners) listener(record);
    return record;
  }

  /** The newest `limit` records, newest first; of one session alone when `session` is given. */
  list(limit: number = this.capacity, session?: string): JournalRecord[] {
    const records: JournalRecord[] = [];
    for (let step = 1; step <= this.capacity && records.length < limit; step++) {
      const record = this.ring[(this.next - step + this.capacity) % this.capacity];
      if (!record) break;
      if (session === undefined || record.session === session) records.push(record);
    }
    return records;
  }

  /** Empties the journal; ids keep counting, so a client never confuses an old entry with a new one. */
  clear(): void {
    this.ring.fill(undefined);
    this.next = 0;
  }

  /** Calls `listener` with every record as it is made; returns the unsubscribe function. */
  subscribe(listener: (record: JournalRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
