import type { Scenario } from './scenarios.js';

/** The mock's clock: the present moment in microseconds since the epoch, the service's precision. */
export type Clock = () => number;

/** The machine's clock, to the microsecond where the runtime gives it (Node and browsers both have `performance`). */
const systemClock: Clock = () => Math.floor((performance.timeOrigin + performance.now()) * 1000);

/** The `now` option's function as a clock, or the machine's clock (an instant given as text is a scenario key). */
export function clockFrom(now: (() => Date) | undefined): Clock {
  return now ? () => now().getTime() * 1000 : systemClock;
}

const rfc3339 = /^(\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?([Zz]|[+-]\d\d:\d\d)$/;

/** An RFC 3339 date-time as microseconds since the epoch (digits past the sixth dropped); undefined for other text. */
export function instantMicros(text: string): number | undefined {
  const match = rfc3339.exec(text);
  if (!match) return undefined;
  const [, seconds, fraction = '', offset] = match as unknown as [string, string, string | undefined, string];
  const ms = Date.parse(`${seconds}${offset}`);
  return Number.isNaN(ms) ? undefined : ms * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}

/** The moment a request is answered at: the scenario's pinned `now` (checked when it was read), else the clock's. */
export function requestMoment(scenario: Scenario, clock: Clock): number {
  return (scenario.now === undefined ? undefined : instantMicros(scenario.now)) ?? clock();
}
