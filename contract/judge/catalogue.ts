import {
  operationIds,
  operationLabel,
  operationTable,
  type OperationId,
  type OperationKey,
} from '../../api/operations.js';
import { createChecks } from './checks/create.js';
import { fetchChecks } from './checks/fetch.js';
import { propertyChecks } from './checks/properties.js';
import type { CheckDefinition } from './define.js';

export type { CheckDefinition, Severity } from './define.js';

/**
 * The checks of each operation: keyed by operation, so a new one owes its checks here (a compile error), where a flat
 * list judged it with none and said nothing.
 */
const checksByOperation = {
  fetchHumanEvaluation: fetchChecks,
  createEvaluations: [...createChecks, ...propertyChecks],
} as const satisfies Record<OperationId, readonly CheckDefinition<string>[]>;

/** A check's id: a misspelt one does not compile. */
export type CheckId = (typeof checksByOperation)[keyof typeof checksByOperation][number]['id'];

const checksOf: Record<OperationId, readonly CheckDefinition<CheckId>[]> = checksByOperation;

/** Every check, in the order reports list them: by operation, in the table's order. */
export const catalogue: readonly CheckDefinition<CheckId>[] = operationIds.flatMap((id) => checksOf[id]);

/** The operations of the spec (section 4) by key, as the report names them (api/operations.ts, operationLabel). */
export const operations = Object.fromEntries(
  operationIds.map((id) => [operationTable[id].key, operationLabel(id)]),
) as Record<OperationKey, string>;
