import type { MockAnswer, MockRequest } from './request-answer.js';

/** One request the core answered, as an observer sees it (the control room's journal keeps these). */
export interface AnsweredRequest {
  /** The request as the adapter gave it. */
  request: MockRequest;
  /** The body bytes the core read (inflated), if it read any: an upload the answer ignored is never read for this. */
  body: Uint8Array | undefined;
  answer: MockAnswer;
  /** Epoch milliseconds at arrival. */
  arrived: number;
  /** From arrival to the answer being settled, latency included. */
  durationMs: number;
}

export type AnswerObserver = (answered: AnsweredRequest) => void;

type Answer = (request: MockRequest) => MockAnswer | Promise<MockAnswer>;

/**
 * `answer` with observers: each is told of every request once its answer is settled, before the adapter delivers it.
 * With no observer the request goes straight to `answer`, so a core nobody watches pays one size check per request.
 * An observer that throws is reported and never changes the answer.
 */
export function observable(
  answer: Answer,
  report: (line: string) => void,
): { handle: Answer; observe(observer: AnswerObserver): () => void } {
  const observers = new Set<AnswerObserver>();

  function observed(request: MockRequest): MockAnswer | Promise<MockAnswer> {
    const arrived = Date.now();
    const started = performance.now();
    const source = request.body;
    let body: Uint8Array | undefined;
    const remember = (bytes: Uint8Array) => (body = bytes);
    const reading: MockRequest =
      source === undefined
        ? request
        : {
            ...request,
            body: () => {
              const raw = typeof source === 'function' ? source() : source;
              return raw instanceof Promise ? raw.then(remember) : remember(raw);
            },
          };
    const tell = (settled: MockAnswer): MockAnswer => {
      const answered = { request, body, answer: settled, arrived, durationMs: performance.now() - started };
      for (const observer of observers) {
        try {
          observer(answered);
        } catch (error) {
          report(`mock: an answer observer failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      return settled;
    };
    const settled = answer(reading);
    return settled instanceof Promise ? settled.then(tell) : tell(settled);
  }

  return {
    handle: (request) => (observers.size === 0 ? answer(request) : observed(request)),
    observe(observer) {
      observers.add(observer);
      return () => observers.delete(observer);
    },
  };
}
