import { operationIds, operationLabel, operationTable, type OperationKey } from '../../api/operations.js';
import { createChecks } from './checks/create.js';
import { fetchChecks } from './checks/fetch.js';
import { propertyChecks } from './checks/properties.js';
import type { CheckDefinition } from './define.js';

export type { CheckDefinition, Severity } from './define.js';

const definitions = [...fetchChecks, ...createChecks, ...propertyChecks] as const;

/** A check's id: a misspelt one does not compile. */
export type CheckId = (typeof definitions)[number]['id'];

/** Every check, in the order reports list them. */
export const catalogue: readonly CheckDefinition<CheckId>[] = definitions;

/** The operations of the spec (section 4) by key, as the report names them (api/operations.ts, operationLabel). */
export const operations = Object.fromEntries(
  operationIds.map((id) => [operationTable[id].key, operationLabel(id)]),
) as Record<OperationKey, string>;
