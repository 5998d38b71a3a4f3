import { credentialField } from '../../api/credentials.js';
import type { ValidationStack } from '../../generators/vocabulary.js';
import { providerKeyValues, redactProviderKeys, secretPlaceholder } from '../../http/placeholders.js';
import type { ValidationDetail } from './errors.js';
import type { Location, Problem, ProblemKind } from './pydantic.js';

/**
 * Problems in the words of a release's validation stack, as FastAPI 0.109.2 sends them in a 422's `detail`: pydantic
 * 1's `{loc, msg, type[, ctx]}` or pydantic 2's `{type, loc, msg, input[, ctx], url}`, in those key orders (measured
 * against the real service, ../shared/real-service). pydantic 2 sends the value it refused (`input`); the mock sends it
 * too, but never a provider key (spec §4.2): the real v0.19+ service echoed them, the mock puts `<PROVIDER_KEY>` there.
 */

/** The limits the mock adds (limits.ts), worded as a pydantic constraint of the same kind would be. */
type LimitKind = 'string_too_long' | 'too_long';

export interface Limit {
  kind: LimitKind;
  loc: Location;
  input: unknown;
  limit: number;
  /** For `too_long`: how many items there were, and of what. */
  actual?: number;
  container?: 'List' | 'Dictionary';
}

interface Words {
  type: string;
  msg: string;
  ctx?: Record<string, unknown>;
}

const quoted = (names: readonly string[]) => names.map((name) => `'${name}'`);

/** pydantic 1.10's words for the problems that carry no context (its error classes' msg_template and code). */
const integerError: Words = { type: 'type_error.integer', msg: 'value is not a valid integer' };
const dictError: Words = { type: 'type_error.dict', msg: 'value is not a valid dict' };
const pydantic1Plain: Record<Exclude<ProblemKind, 'enum'>, Words> = {
  missing: { type: 'value_error.missing', msg: 'field required' },
  none: { type: 'type_error.none.not_allowed', msg: 'none is not an allowed value' },
  string_type: { type: 'type_error.str', msg: 'str type expected' },
  int_type: integerError,
  int_parsing: integerError,
  int_from_float: integerError,
  list_type: { type: 'type_error.list', msg: 'value is not a valid list' },
  dict_type: dictError,
  model_type: dictError,
};

/** pydantic 1.10's words (its error classes' msg_template and code). */
function pydantic1Words(problem: Problem | Limit): Words {
  switch (problem.kind) {
    case 'enum': {
      const names = problem.accepted ?? [];
      return {
        type: 'type_error.enum',
        msg: `value is not a valid enumeration member; permitted: ${quoted(names).join(', ')}`,
        ctx: { enum_values: names },
      };
    }
    case 'string_too_long':
      return {
        type: 'value_error.any_str.max_length',
        msg: `ensure this value has at most ${problem.limit} characters`,
        ctx: { limit_value: problem.limit },
      };
    case 'too_long':
      return {
        type: problem.container === 'Dictionary' ? 'value_error.dict.max_items' : 'value_error.list.max_items',
        msg: `ensure this value has at most ${problem.limit} items`,
        ctx: { limit_value: problem.limit },
      };
    default:
      return pydantic1Plain[problem.kind];
  }
}

/** pydantic 2's type for a null where a value of the expected kind is required. */
const pydantic2Nulls: Record<string, ProblemKind> = {
  string: 'string_type',
  integer: 'int_type',
  list: 'list_type',
  dict: 'dict_type',
  model: 'model_type',
};

/** pydantic-core 2.18's words for the problems that carry no context (its ErrorType messages). */
const pydantic2Plain: Record<Exclude<ProblemKind, 'none' | 'enum'>, Words> = {
  missing: { type: 'missing', msg: 'Field required' },
  string_type: { type: 'string_type', msg: 'Input should be a valid string' },
  int_type: { type: 'int_type', msg: 'Input should be a valid integer' },
  int_parsing: { type: 'int_parsing', msg: 'Input should be a valid integer, unable to parse string as an integer' },
  int_from_float: {
    type: 'int_from_float',
    msg: 'Input should be a valid integer, got a number with a fractional part',
  },
  list_type: { type: 'list_type', msg: 'Input should be a valid list' },
  dict_type: { type: 'dict_type', msg: 'Input should be a valid dictionary' },
  model_type: {
    type: 'model_attributes_type',
    msg: 'Input should be a valid dictionary or object to extract fields from',
  },
};

/** pydantic-core 2.18's words (its ErrorType messages). */
function pydantic2Words(problem: Problem | Limit): Words {
  const kind = problem.kind === 'none' ? (pydantic2Nulls[(problem as Problem).expects ?? ''] ?? 'none') : problem.kind;
  switch (kind) {
    case 'enum': {
      const names = quoted((problem as Problem).accepted ?? []);
      const expected = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? '');
      return { type: 'enum', msg: `Input should be ${expected}`, ctx: { expected } };
    }
    case 'string_too_long': {
      const { limit } = problem as Limit;
      return {
        type: 'string_too_long',
        msg: `String should have at most ${limit} characters`,
        ctx: { max_length: limit },
      };
    }
    case 'too_long': {
      const { limit, actual, container = 'List' } = problem as Limit;
      return {
        type: 'too_long',
        msg: `${container} should have at most ${limit} items after validation, not ${actual}`,
        ctx: { field_type: container, max_length: limit, actual_length: actual },
      };
    }
    case 'none':
      return { type: 'none_required', msg: 'Input should be None' };
    default:
      return pydantic2Plain[kind];
  }
}

/** The pydantic 2 release the service pinned from v0.19.0 (2.7.4): its documentation links carry it. */
const pydantic2Docs = 'https://errors.pydantic.dev/2.7/v/';

/**
 * What one answer echoes at most, in characters of JSON: past it an `input` is a note of its size instead, so a 1 MiB
 * body refused for five missing fields is not sent back five times.
 */
export const maxEchoCharacters = 16 * 1024;

/** The echo left to an answer (maxEchoCharacters at first), spent by each `input` it sends back. */
export interface EchoBudget {
  left: number;
}

/** A scalar under lm_providers_keys is a credential, whatever its JSON type (a key sent as a number is one too). */
const secretScalar = (value: unknown) => (value === null || typeof value === 'object' ? value : secretPlaceholder);

/** Every scalar of a value but null replaced by the placeholder: a value under lm_providers_keys is a credential. */
function allSecret(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return secretScalar(value);
  return JSON.parse(JSON.stringify(value), (_key, item: unknown) => secretScalar(item)) as unknown;
}

/**
 * A body sent as another media type, as pydantic 2 echoes it (the text): the provider keys it holds, when it is JSON,
 * replaced; a text that is not JSON is withheld, since where a key sits in it cannot be told.
 */
function echoedText(text: string): string {
  let read: unknown;
  try {
    read = JSON.parse(text);
  } catch {
    return '<withheld: a body that is not JSON may hold a provider key>';
  }
  let echoed = text;
  for (const key of providerKeyValues(read))
    if (key !== '')
      echoed = echoed
        .split(key)
        .join(secretPlaceholder)
        .split(JSON.stringify(key).slice(1, -1))
        .join(secretPlaceholder);
  return echoed;
}

/** What pydantic 2's `input` holds for a problem at `loc`: the value, never a provider key, never past the budget. */
function echoedInput(input: unknown, loc: Location, raw: boolean, budget: EchoBudget): unknown {
  // Measured before any copy: an input past the budget (a 1 MiB body missing a field) is never cloned or redacted.
  const before = typeof input === 'string' ? input.length : (JSON.stringify(input)?.length ?? 0);
  if (before > budget.left) return `<${before} characters, not echoed>`;
  let echoed: unknown;
  if (raw && typeof input === 'string') echoed = echoedText(input);
  else if (loc[1] === credentialField && loc.at(-1) !== '[key]') echoed = allSecret(input);
  else if (input !== null && typeof input === 'object') {
    echoed = structuredClone(input);
    redactProviderKeys(echoed);
  } else echoed = input;
  const size = JSON.stringify(echoed)?.length ?? 0;
  if (size > budget.left) return `<${size} characters, not echoed>`;
  budget.left -= size;
  return echoed;
}

/**
 * One problem as the stack words it. `raw`: the input is a body's text (sent as another media type), which pydantic
 * 2 echoes as a string. `budget`: the answer's echo left, shared by its problems.
 */
export function worded(
  stack: ValidationStack,
  problem: Problem | Limit,
  budget: EchoBudget = { left: maxEchoCharacters },
  raw = false,
): ValidationDetail {
  const { loc } = problem;
  if (stack === 'pydantic1') {
    const { type, msg, ctx } = pydantic1Words(problem);
    return ctx ? { loc, msg, type, ctx } : { loc, msg, type };
  }
  const { type, msg, ctx } = pydantic2Words(problem);
  const input = echoedInput(problem.input, loc, raw, budget);
  return { type, loc, msg, input, ...(ctx && { ctx }), url: `${pydantic2Docs}${type}` };
}

/** FastAPI's own entry for a body Python's json refused: the same under both stacks (FastAPI builds it). */
export function jsonInvalid(position: number, error: string): ValidationDetail {
  return { type: 'json_invalid', loc: ['body', position], msg: 'JSON decode error', input: {}, ctx: { error } };
}

/** The entry that counts the problems a 422 does not list (the mock's bound on an answer's size). */
export function unlisted(stack: ValidationStack, rest: number, listed: number): ValidationDetail {
  const msg = `${rest} more problem(s) not listed: the mock lists the first ${listed}`;
  return stack === 'pydantic1'
    ? { loc: ['body'], msg, type: 'value_error.too_many_problems' }
    : { type: 'too_many_problems', loc: ['body'], msg, input: null };
}
