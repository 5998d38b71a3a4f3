import { operationNamed } from '../../api/operations.js';
import { isJsonObject } from '../../schemas/json-object.js';
import { ScenarioBook, type ScenarioFileData, type ScenarioHolder } from '../core/scenario-book.js';
import { ScenarioError } from '../core/scenarios.js';

/**
 * A JSON Merge Patch (RFC 7396): objects merge key by key, `null` removes a key, anything else replaces it. The body
 * reader has already refused `__proto__` and its kin, so plain assignment is safe.
 */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return patch;
  const merged: Record<string, unknown> = isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = mergePatch(merged[key], value);
  }
  return merged;
}

/** A patch with its operations under their current names: a former name merges into the rule it stands for. */
function currentNames(patch: Record<string, unknown>): Record<string, unknown> {
  const rules = patch.operations;
  if (!isJsonObject(rules)) return patch;
  const renamed = Object.entries(rules).map(([name, rule]) => [operationNamed(name) ?? name, rule]);
  return { ...patch, operations: Object.fromEntries(renamed) };
}

/** A rule whose every key a patch removed is no rule: the operation or id goes back to the server's scenario. */
function withoutEmptyRules(data: Record<string, unknown>): Record<string, unknown> {
  for (const section of ['operations', 'humanEvaluations']) {
    const rules = data[section];
    if (!isJsonObject(rules)) continue;
    data[section] = Object.fromEntries(
      Object.entries(rules).filter(([, rule]) => !isJsonObject(rule) || Object.keys(rule).length > 0),
    );
  }
  return data;
}

/**
 * A scenario config with a JSON Merge Patch applied (`PATCH /__evalkit/scenario`, a session's too), to be checked as a
 * whole one is. Throws a ScenarioError for a patch that is not an object.
 */
export function mergedScenario(current: ScenarioFileData, patch: unknown): unknown {
  if (!isJsonObject(patch))
    throw new ScenarioError('a PATCH body is an object of the sections to merge, e.g. {"operations": {...}}');
  return withoutEmptyRules(mergePatch(current, currentNames(patch)) as Record<string, unknown>);
}

/**
 * The server scenario at run time: read, replaced, merged into and restored by the control room. It swaps the whole
 * book in the core's holder, so a request is answered by the old scenario or the new one, never a mix. Framework-free.
 */
export class ScenarioStore {
  private readonly startup: ScenarioBook;

  constructor(private readonly holder: ScenarioHolder) {
    this.startup = holder.current;
  }

  /** The scenario in force, in the `--scenarios` file's shape (flags folded into its `scenario` section). */
  current(): ScenarioFileData {
    return this.holder.current.toData();
  }

  /** Puts a scenario config in force. Throws a ScenarioError naming the entry at fault, and then keeps the old one. */
  replace(data: unknown): ScenarioFileData {
    this.holder.current = ScenarioBook.fromData(data);
    return this.current();
  }

  /**
   * Merges a patch into the scenario in force (`{"operations": {"createEvaluations": {"code": 503}}}` adds one rule and
   * keeps the others; `null` removes a key or a whole rule), checked as `replace` checks a whole one.
   */
  merge(patch: unknown): ScenarioFileData {
    return this.replace(mergedScenario(this.current(), patch));
  }

  /** The start-up scenario, in the shape `current` gives: the dashboard tells a run-time scenario from it. */
  startupData(): ScenarioFileData {
    return this.startup.toData();
  }

  /** Puts the start-up scenario (flags and `--scenarios` file) back in force. */
  restore(): ScenarioFileData {
    this.holder.current = this.startup;
    return this.current();
  }
}
