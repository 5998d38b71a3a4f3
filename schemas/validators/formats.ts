import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isRfc3339DateTime } from './date-time.js';

/**
 * The formats the validators know, by name: ajv-formats' full set with date-time replaced by RFC 3339 exactly. The
 * standalone validators (compiled.ts) look formats up here at run time, and scripts/standalone-validators.ts registers
 * these same definitions when it compiles them, so the two cannot drift.
 */
export const formats = { ...fullFormats, 'date-time': { type: 'string', validate: isRfc3339DateTime } } as const;
