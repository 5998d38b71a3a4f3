import type { OperationId } from './operations.js';

/**
 * The keys of a mock scenario (flags, a scenario config, the `Prefer` header), named here, below both the mock that
 * parses them and the traffic reader (http/traffic.ts) that must tell which of them forced a recorded answer.
 */
export const scenarioKeys = [
  'code',
  'state',
  'latency',
  'fault',
  'nullable',
  'strictNulls',
  'profile',
  'seed',
  'now',
  'era',
  'eraDates',
  'progress',
] as const;
export type ScenarioKey = (typeof scenarioKeys)[number];

/**
 * Keys that shape one operation's answers only; every other key applies to both. An operation's answer names in
 * Preference-Applied only the keys it applied: a create ignores `progress` (human evaluations move along), a fetch
 * ignores `strictNulls` (request bodies' nulls).
 */
export const oneOperationKeys: Partial<Record<ScenarioKey, OperationId>> = {
  progress: 'fetchHumanEvaluation',
  strictNulls: 'createEvaluations',
};

/**
 * Keys that change how fast an answer comes or which generated values it carries, never what the API would answer.
 * Every other key forces the answer, so a key added to the list above is read as forcing until it is named here: a
 * replay then skips what it forced rather than blaming the deployment for the mock's answer.
 */
const shapingKeys: ReadonlySet<ScenarioKey> = new Set([
  'latency',
  // Which phase a followed record is in when asked: paced, never forced (a deployment moves its own runs along).
  'progress',
  'profile',
  'seed',
  'now',
  'era',
  'eraDates',
] as const);

/** The keys that decide what the mock answers (`code=503`): an answer they forced is the mock's, not the API's. */
export const forcingScenarioKeys: readonly ScenarioKey[] = scenarioKeys.filter((key) => !shapingKeys.has(key));
