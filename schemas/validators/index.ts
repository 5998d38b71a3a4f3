import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import { schemaFor, schemaId, schemaNames, type SchemaName } from '../index.js';
import { dateTimeFormatDescription, isRfc3339DateTime } from './date-time.js';
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

// ajv-formats is CommonJS; under NodeNext its default export arrives either bare or wrapped.
const addFormats = ((formatsPlugin as unknown as { default?: typeof formatsPlugin }).default ??
  formatsPlugin) as unknown as (ajv: Ajv2020) => Ajv2020;

function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addFormat('date-time', { type: 'string', validate: isRfc3339DateTime });
  for (const name of schemaNames) ajv.addSchema(schemaFor(name));
  return ajv;
}

export const ajv = createAjv();

const compiled = new Map<SchemaName, ValidateFunction>();

/**
 * The compiled ajv validator of a resource or an error body; each schema is compiled once and reused. A name that is
 * no schema's (from JavaScript, or a cast) is a TypeError listing the names, not ajv's or a property read's.
 */
export function validatorFor(name: SchemaName): ValidateFunction {
  let validate = compiled.get(name);
  if (!validate) {
    if (!schemaNames.includes(name))
      throw new TypeError(`unknown schema ${JSON.stringify(name)}; accepted: ${schemaNames.join(', ')}`);
    validate = ajv.getSchema(schemaId(name));
    if (!validate) throw new Error(`schema ${name} is not registered`);
    compiled.set(name, validate);
  }
  return validate;
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
