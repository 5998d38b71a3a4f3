import { isRenderable, renderableMoments } from '../../generators/moments.js';
import { dateTimeFields, offsetMinutesOf } from '../../schemas/validators/date-time-fields.js';
import { HttpProblem } from './errors.js';
import type { Scenario } from './scenarios.js';

/** The mock's clock: the present moment in microseconds since the epoch, the service's precision. */
export type Clock = () => number;

/** The last reading of the system clock: its millisecond and the microseconds it gave. */
let lastReading = { ms: Number.NaN, micros: 0 };

/**
 * The machine's clock as `Date` tells it, so a test's fake timers move the mock (`vi.setSystemTime`,
 * `vi.advanceTimersByTime`, Jest's and sinon's alike), which `performance` does not follow. `Date` counts
 * milliseconds; the service writes microseconds, taken from `performance`'s fraction. Both clocks tick apart, so
 * within one millisecond of `Date` the reading never goes back; across milliseconds it follows `Date`, even back.
 */
const systemClock: Clock = () => {
  const ms = Date.now();
  const micros = ms * 1000 + Math.floor((performance.now() % 1) * 1000);
  if (ms === lastReading.ms && micros < lastReading.micros) return lastReading.micros;
  lastReading = { ms, micros };
  return micros;
};

/**
 * The `now` option's function as a clock, or the machine's clock (an instant given as text is a scenario key). A
 * function is the developer's own code (a fake timer set to 1970, an Invalid Date): a moment the mock cannot render is
 * answered with a 500 naming the option, never with bodies that fail the schemas.
 */
export function clockFrom(now: (() => Date) | undefined): Clock {
  if (!now) return systemClock;
  return () => {
    const date = now();
    const micros = date instanceof Date ? date.getTime() * 1000 : Number.NaN;
    if (isRenderable(micros)) return micros;
    const read = date instanceof Date && !Number.isNaN(date.getTime()) ? date.toISOString() : 'no date';
    throw new HttpProblem(
      500,
      `The mock's now option reads ${read}: the mock renders moments ${renderableMoments.text}`,
    );
  };
}

/**
 * An RFC 3339 date-time as microseconds since the epoch (digits past the sixth dropped, at most nine written);
 * undefined for other text and for a date or time that does not exist (`2025-02-30`, `24:00`, an offset of `+24:00`):
 * read by a calendar that rolls over, those would silently become another moment. A leap second (`:60`) is refused
 * too: no clock here can hold it.
 */
export function instantMicros(text: string): number | undefined {
  const fields = dateTimeFields(text);
  if (!fields || fields.fraction.length > 9 || fields.offset.hours > 23 || fields.offset.minutes > 59) return undefined;
  const { year, month, day, hour, minute, second, fraction, offset } = fields;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const exists =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  if (!exists) return undefined;
  return (date.getTime() - offsetMinutesOf(offset) * 60_000) * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}

/** The moment a request is answered at: the scenario's pinned `now` (checked when it was read), else the clock's. */
export function requestMoment(scenario: Scenario, clock: Clock): number {
  return (scenario.now === undefined ? undefined : instantMicros(scenario.now)) ?? clock();
}
