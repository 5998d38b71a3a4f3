import type { ErrorObject } from 'ajv';
import { schemaNames, type SchemaName } from '../index.js';
import * as compiled from './compiled.js';
import { dateTimeFormatDescription } from './date-time.js';
import { pointerOf } from './json-pointer.js';
import type { EvaluatorConfig } from '../types/resources.js';

/** One schema violation: where it is (a JSON pointer into the instance) and what is wrong, in words. */
export interface ValidationIssue {
  pointer: string;
  message: string;
  /** The schema keyword the value fails (ajv's `keyword`): `required`, `type`, `format`... */
  keyword: string;
  /** With keyword `format`: the format the value fails (`date-time`), so a reader never parses the message. */
  format?: string;
}

export interface ValidationResult {
  valid: boolean;
  issues: ValidationIssue[];
}

/**
 * A schema's validate function: true when the data is valid, else false with the reasons in `errors` (ajv's error
 * objects), until the next call.
 */
export interface SchemaValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/**
 * One validator per schema, compiled ahead of time from schemas/ by ajv (compiled.ts, `npm run validators`): nothing
 * is compiled at run time, so a page whose Content-Security-Policy forbids eval validates too.
 */
const validators: Readonly<Record<SchemaName, SchemaValidator>> = Object.freeze(
  Object.fromEntries(
    schemaNames.map((name) => [name, (compiled as Record<string, SchemaValidator>)[`validate${name}`]]),
  ) as Record<SchemaName, SchemaValidator>,
);

/**
 * The validator of a resource or an error body; always the same function for a name. A name that is no schema's
 * (from JavaScript, or a cast) is a TypeError listing the names, not a property read's.
 */
export function validatorFor(name: SchemaName): SchemaValidator {
  if (!Object.hasOwn(validators, name))
    throw new TypeError(`unknown schema ${JSON.stringify(name)}; accepted: ${schemaNames.join(', ')}`);
  return validators[name];
}

function describe(error: ErrorObject): ValidationIssue {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        pointer: `${error.instancePath}${pointerOf([String(params.missingProperty)])}`,
        message: 'is required but missing',
        keyword: 'required',
      };
    case 'format':
      return {
        pointer: error.instancePath,
        message:
          params.format === 'date-time'
            ? `must be ${dateTimeFormatDescription}`
            : `must match format ${String(params.format)}`,
        keyword: 'format',
        format: String(params.format),
      };
    default:
      return {
        pointer: error.instancePath,
        message: error.message ?? `fails ${error.keyword}`,
        keyword: error.keyword,
      };
  }
}

/** Drops the bare "must match a schema in anyOf" summaries: the branch errors beside them already say what is wrong. */
function meaningful(errors: ErrorObject[]): ErrorObject[] {
  return errors.length > 1 ? errors.filter((error) => error.keyword !== 'anyOf') : errors;
}

export function validate(name: SchemaName, data: unknown): ValidationResult {
  const check = validatorFor(name);
  if (check(data)) return { valid: true, issues: [] };
  return { valid: false, issues: meaningful(check.errors ?? []).map(describe) };
}

/** A readable one-liner per issue, e.g. `/rate_limit/batch_size must be integer`. */
export function formatIssue(issue: ValidationIssue): string {
  return `${issue.pointer || '(root)'} ${issue.message}`;
}

/**
 * The spec declares evaluator_config as anyOf several alternatives and shows one. Schema validation accepts
 * any value there; this tells whether a value matches the documented alternative, and narrows it to that type:
 * `if (isDocumentedEvaluatorConfig(c)) c.name` needs no cast.
 */
export function isDocumentedEvaluatorConfig(value: unknown): value is EvaluatorConfig {
  return validatorFor('EvaluatorConfig')(value);
}
