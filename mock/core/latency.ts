/** A delay before answering, in milliseconds: fixed when min equals max, uniform in [min, max] otherwise. */
export interface LatencyRange {
  min: number;
  max: number;
}

/** A minute: long enough for any spinner test, short enough that a typo cannot park a connection for good. */
export const maxLatencyMs = 60_000;

/** Reads `MS` or `MIN-MAX`; undefined when the text is neither. */
export function parseLatency(text: string): LatencyRange | undefined {
  const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(text.trim());
  if (!match) return undefined;
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : Number(match[2]);
  return min <= max && max <= maxLatencyMs ? { min, max } : undefined;
}

export function formatLatency(range: LatencyRange): string {
  return range.min === range.max ? String(range.min) : `${range.min}-${range.max}`;
}

/** Waits a draw from the range. Random on purpose: a UI should meet varied timings, and bodies stay seeded. */
export function waitLatency(range: LatencyRange): Promise<void> {
  const ms = range.min + Math.floor(Math.random() * (range.max - range.min + 1));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer: unknown = setTimeout(resolve, ms);
    // Unref'd in Node: a pending delay must not hold the process open after the node:http server has closed (SIGTERM
    // mid-wait). The Fetch path (handleFetch) holds the process itself while an answer waits.
    (timer as { unref?: () => void }).unref?.();
  });
}
