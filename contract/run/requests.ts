import { operationTable } from '../../api/operations.js';
import { pathFor } from '../../api/match.js';
import type { Outgoing } from '../judge/sent.js';

const fetchOperation = operationTable.fetchHumanEvaluation;
const createOperation = operationTable.createEvaluations;

/** The fetch of one human evaluation; `what` says what the id is when the path does not. */
export function fetchRequest(id: string, what?: string): Outgoing {
  return {
    method: fetchOperation.method,
    path: pathFor('fetchHumanEvaluation', { [fetchOperation.parameter.name]: id }),
    ...(what !== undefined ? { what } : {}),
  };
}

/** A create request with this body, JSON unless `contentType` says otherwise. */
export function createRequest(body: string, contentType?: string): Outgoing {
  return {
    method: createOperation.method,
    path: pathFor('createEvaluations'),
    body,
    ...(contentType === undefined ? {} : { contentType }),
  };
}
