import { finding, type Finding } from './define.js';
import { isRfc3339DateTime } from '../../schemas/validators/date-time.js';
import { dateTimeFields, offsetMinutesOf } from '../../schemas/validators/date-time-fields.js';

/**
 * An RFC 3339 date-time as nanoseconds since the epoch. Offsets are applied and fractions kept to the nanosecond,
 * because strings (and even Date, which stops at milliseconds) order microsecond timestamps wrongly.
 * Undefined for anything that is not RFC 3339: schema validation reports those.
 */
export function instant(value: unknown): bigint | undefined {
  if (typeof value !== 'string' || !isRfc3339DateTime(value)) return undefined;
  const fields = dateTimeFields(value);
  if (!fields) return undefined;
  const { year, month, day, hour, minute, second, fraction, offset } = fields;
  const wall = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59));
  const nanos = BigInt(fraction.slice(0, 9).padEnd(9, '0'));
  // A leap second (:60) sorts after :59 of the same minute.
  const leap = second === 60 ? 1_000_000_000n : 0n;
  return BigInt(wall - offsetMinutesOf(offset) * 60_000) * 1_000_000n + nanos + leap;
}

/** A finding when created_at is later than updated_at, both read as instants. */
export function periodFinding(record: Record<string, unknown>, where: string): Finding | undefined {
  const created = instant(record.created_at);
  const updated = instant(record.updated_at);
  if (created === undefined || updated === undefined || created <= updated) return undefined;
  return finding(
    `${where}: created_at ${String(record.created_at)} is later than updated_at ${String(record.updated_at)}`,
  );
}
