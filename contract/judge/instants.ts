import { isRfc3339DateTime } from '../../schemas/validators/date-time.js';

const parts = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * An RFC 3339 date-time as nanoseconds since the epoch. Offsets are applied and fractions kept to the nanosecond,
 * because strings (and even Date, which stops at milliseconds) order microsecond timestamps wrongly.
 * Undefined for anything that is not RFC 3339: schema validation reports those.
 */
export function instant(value: unknown): bigint | undefined {
  if (typeof value !== 'string' || !isRfc3339DateTime(value)) return undefined;
  const match = parts.exec(value);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction = '', sign, offsetHours = '0', offsetMinutes = '0'] = match;
  const wall = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Math.min(Number(second), 59),
  );
  const offsetMs = (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000;
  const nanos = BigInt(fraction.slice(0, 9).padEnd(9, '0'));
  // A leap second (:60) sorts after :59 of the same minute.
  const leap = Number(second) === 60 ? 1_000_000_000n : 0n;
  return BigInt(wall - offsetMs) * 1_000_000n + nanos + leap;
}

/** A finding when created_at is later than updated_at, both read as instants. */
export function periodFinding(record: Record<string, unknown>, where: string): string | undefined {
  const created = instant(record.created_at);
  const updated = instant(record.updated_at);
  if (created === undefined || updated === undefined || created <= updated) return undefined;
  return `${where}: created_at ${String(record.created_at)} is later than updated_at ${String(record.updated_at)}`;
}
