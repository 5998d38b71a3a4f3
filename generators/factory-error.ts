import { didYouMean } from '../http/spelling.js';
import {
  evaluationStateFrom,
  evaluationStateNames,
  evaluationStateTypedNames,
  type EvaluationState,
} from './vocabulary.js';

/**
 * What the generators and build() refuse: an unknown resource or state, an override that breaks the schema or its
 * sibling fields. The message names the field, the value and what is accepted; so do `field`, `value` and `accepted`.
 */
export class FactoryError extends Error {
  readonly field: string;
  readonly value: unknown;
  readonly accepted: string;

  constructor(field: string, value: unknown, accepted: string, problem = `${field} cannot be ${show(value)}`) {
    super(`${problem}; accepted: ${accepted}`);
    this.name = 'FactoryError';
    this.field = field;
    this.value = value;
    this.accepted = accepted;
  }
}

export function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * A state as every entry point reads it, the mock's short forms included (`'failed'` is EVALUATION_FAILED); a
 * FactoryError naming `caller` for anything else, a JavaScript caller's non-string too.
 */
export function stateFrom(caller: string, state: unknown): EvaluationState | undefined {
  if (state === undefined) return undefined;
  const normalised = typeof state === 'string' ? evaluationStateFrom(state) : undefined;
  if (normalised === undefined) {
    const typo = typeof state === 'string' ? didYouMean(state, evaluationStateTypedNames, 1) : '';
    throw new FactoryError('state', state, evaluationStateNames, `${caller}: state cannot be ${show(state)}${typo}`);
  }
  return normalised;
}
