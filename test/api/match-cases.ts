import type { OperationId } from '../../api/operations.js';

/**
 * The one table of request paths every consumer of the API surface must read alike: the mock's router, the proxy's
 * matcher and the contract's request builders each run it (test/api/match.test.ts, test/mock, test/proxy).
 * `path` is relative to the base path; `expected` is the operation and its decoded parameters, `undecodable` for a
 * parameter that is not percent-encoded UTF-8, or `unknown` for no operation.
 */
export interface MatchCase {
  path: string;
  expected: { operation: OperationId; params: Record<string, string> } | { undecodable: OperationId } | 'unknown';
}

export const matchCases: MatchCase[] = [
  {
    path: '/human-evaluations/6637c0a25368ef07b03a64cd',
    expected: { operation: 'fetchHumanEvaluation', params: { evaluation_id: '6637c0a25368ef07b03a64cd' } },
  },
  {
    path: '/human-evaluations/6637c0a25368ef07b03a64cd/',
    expected: { operation: 'fetchHumanEvaluation', params: { evaluation_id: '6637c0a25368ef07b03a64cd' } },
  },
  {
    path: '/human-evaluations/a%20b',
    expected: { operation: 'fetchHumanEvaluation', params: { evaluation_id: 'a b' } },
  },
  {
    path: '/human-evaluations/%C3%A9t%C3%A9',
    expected: { operation: 'fetchHumanEvaluation', params: { evaluation_id: 'été' } },
  },
  {
    path: '/human-evaluations/a%2Fb',
    expected: { operation: 'fetchHumanEvaluation', params: { evaluation_id: 'a/b' } },
  },
  { path: '/human-evaluations/%E0%A4%A', expected: { undecodable: 'fetchHumanEvaluation' } },
  { path: '/human-evaluations/', expected: 'unknown' },
  { path: '/human-evaluations', expected: 'unknown' },
  { path: '/human-evaluations/a/b', expected: 'unknown' },
  { path: '/human-evaluations//', expected: 'unknown' },
  { path: '/Human-Evaluations/x', expected: 'unknown' },
  { path: '/evaluations', expected: { operation: 'createEvaluations', params: {} } },
  { path: '/evaluations/', expected: { operation: 'createEvaluations', params: {} } },
  { path: '/evaluations//', expected: 'unknown' },
  { path: '/Evaluations', expected: 'unknown' },
  { path: '/evaluations/x', expected: 'unknown' },
  { path: '/', expected: 'unknown' },
  { path: '/evaluationsx', expected: 'unknown' },
];
