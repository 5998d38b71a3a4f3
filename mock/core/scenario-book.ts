import { isJsonObject } from '../../schemas/json-object.js';
import { operationIds, operationNamed, type OperationId } from '../../api/operations.js';
import { didYouMean } from '../../http/spelling.js';
import {
  ScenarioError,
  scenarioFrom,
  scenarioKeys,
  scenarioValues,
  shownName,
  type ResolvedScenario,
  type Scenario,
} from './scenarios.js';

/**
 * A scenario config file (`--scenarios FILE`), JSON:
 * `{"scenario": {...}, "operations": {"createEvaluations": {...}}, "humanEvaluations": {"<id>": {...}}}`,
 * each `{...}` a set of scenario keys, e.g. `{"code": 404}` or `{"state": "failed", "latency": "100-300"}`.
 */
export interface ScenarioFile {
  scenario: Scenario;
  operations: Partial<Record<OperationId, Scenario>>;
  humanEvaluations: Map<string, Scenario>;
}

const sections = ['scenario', 'operations', 'humanEvaluations'] as const;

function scenarioAt(where: string, value: unknown): Scenario {
  if (!isJsonObject(value)) throw new ScenarioError(`${where} must be an object of scenario keys`);
  try {
    return scenarioFrom(value);
  } catch (error) {
    throw new ScenarioError(`${where}: ${(error as Error).message}`);
  }
}

/**
 * What an unknown section most likely meant: another section, or a scenario key written at the top level (`{"stat":
 * "failed"}` is `{"scenario": {"state": "failed"}}`), then the sections there are.
 */
function sectionTypo(name: string): string {
  const section = didYouMean(name, sections);
  const key = section === '' ? didYouMean(name, scenarioKeys).replace(/ ([\w]+)\?$/, ' {"scenario": {"$1": …}}?') : '';
  return `${section}${key} (sections: ${sections.join(', ')})`;
}

export function parseScenarioFile(data: unknown): ScenarioFile {
  if (!isJsonObject(data)) throw new ScenarioError('the top level must be an object');
  const unknown = Object.keys(data).filter((key) => !(sections as readonly string[]).includes(key));
  if (unknown.length > 0)
    throw new ScenarioError(`unknown section '${shownName(unknown[0] as string)}'${sectionTypo(unknown[0] as string)}`);
  const file: ScenarioFile = { scenario: {}, operations: {}, humanEvaluations: new Map() };
  if (data.scenario !== undefined) file.scenario = scenarioAt('scenario', data.scenario);
  if (data.operations !== undefined) {
    if (!isJsonObject(data.operations)) throw new ScenarioError('operations must be an object keyed by operationId');
    for (const [name, value] of Object.entries(data.operations)) {
      const id = operationNamed(name);
      if (!id)
        throw new ScenarioError(
          `operations: unknown operation '${shownName(name)}'${didYouMean(name, operationIds)} ` +
            `(operations: ${operationIds.join(', ')})`,
        );
      if (file.operations[id]) throw new ScenarioError(`operations: ${shownName(name)} names ${id} a second time`);
      file.operations[id] = scenarioAt(`operations.${shownName(name)}`, value);
    }
  }
  if (data.humanEvaluations !== undefined) {
    if (!isJsonObject(data.humanEvaluations))
      throw new ScenarioError('humanEvaluations must be an object keyed by evaluation id');
    for (const [id, value] of Object.entries(data.humanEvaluations))
      file.humanEvaluations.set(id, scenarioAt(`humanEvaluations.${shownName(id)}`, value));
  }
  return file;
}

/** What every server scenario starts from: the generators' default profile and seed. */
export const defaultScenario: ResolvedScenario = { profile: 'mixed', seed: '1' };

type ScenarioValues = Record<string, string | number | boolean>;

/** A scenario config in its JSON shape, as a `--scenarios` file holds it. */
export interface ScenarioFileData {
  scenario: ScenarioValues;
  operations: Partial<Record<OperationId, ScenarioValues>>;
  humanEvaluations: Record<string, ScenarioValues>;
}

/**
 * The server-wide scenarios, merged once from the most general to the most specific: server base (flags over the
 * file's `scenario`), then the operation's, then a human evaluation id's. A request's Prefer header is merged on top
 * of what this returns.
 */
export class ScenarioBook {
  private readonly byOperation: Record<OperationId, ResolvedScenario>;
  private readonly byId = new Map<string, ResolvedScenario>();

  constructor(
    private readonly base: ResolvedScenario,
    private readonly file?: ScenarioFile,
  ) {
    this.byOperation = Object.fromEntries(
      operationIds.map((name) => [name, { ...base, ...file?.operations[name] }]),
    ) as Record<OperationId, ResolvedScenario>;
    for (const [id, scenario] of file?.humanEvaluations ?? [])
      this.byId.set(id, { ...this.byOperation.fetchHumanEvaluation, ...scenario });
  }

  /** A book from a scenario config alone (no flags): what the control room puts in force. Throws a ScenarioError. */
  static fromData(data: unknown): ScenarioBook {
    const file = parseScenarioFile(data);
    return new ScenarioBook({ ...defaultScenario, ...file.scenario }, file);
  }

  forOperation(operation: OperationId): ResolvedScenario {
    return this.byOperation[operation];
  }

  forHumanEvaluation(id: string): ResolvedScenario {
    return this.byId.get(id) ?? this.byOperation.fetchHumanEvaluation;
  }

  /**
   * The book in a scenario file's shape, flags folded into `scenario`: given back to fromData, it makes the same book.
   */
  toData(): ScenarioFileData {
    return { ...fileData(this.file ?? emptyFile), scenario: scenarioValues(this.base) };
  }
}

const emptyFile: ScenarioFile = { scenario: {}, operations: {}, humanEvaluations: new Map() };

/** A parsed scenario config in its JSON shape again: each section as it sets it, operations under current names. */
export function fileData(file: ScenarioFile): ScenarioFileData {
  const operationsData: ScenarioFileData['operations'] = {};
  for (const name of operationIds) {
    const scenario = file.operations[name];
    if (scenario) operationsData[name] = scenarioValues(scenario);
  }
  return {
    scenario: scenarioValues(file.scenario),
    operations: operationsData,
    humanEvaluations: Object.fromEntries(
      [...file.humanEvaluations].map(([id, scenario]) => [id, scenarioValues(scenario)]),
    ),
  };
}

/**
 * Where the core reads the server scenarios, once per request: a holder whose book the control room replaces whole,
 * so a request sees either the old book or the new one, never a mix.
 */
export interface ScenarioHolder {
  current: ScenarioBook;
}
