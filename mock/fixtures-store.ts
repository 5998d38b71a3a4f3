import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HumanEvaluation } from '../schemas/types/resources.js';
import { formatIssue, validate } from '../schemas/validators/index.js';
import { serialize } from './send.js';
import { MockSetupError } from './setup-error.js';

/** A fixture file's record and its body, serialized once at start-up. */
export interface Fixture {
  record: HumanEvaluation;
  body: Buffer;
}

/** A fixtures folder that cannot be served as it is; the message names every file at fault, the field and the reason. */
export class FixtureError extends MockSetupError {}

function loadFile(file: string, id: string): { fixture?: Fixture; problems: string[] } {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { problems: [`${file}: not valid JSON (${(error as Error).message.replace(/, ".*" is not valid JSON$/s, '')})`] };
  }
  const result = validate('HumanEvaluation', data);
  if (!result.valid) return { problems: result.issues.map((issue) => `${file}: ${formatIssue(issue)}`) };
  const record = data as HumanEvaluation;
  if (record.id !== id) return { problems: [`${file}: /id is '${record.id}' but the file name says '${id}'; they must match`] };
  return { fixture: { record, body: serialize(record) }, problems: [] };
}

/**
 * Reads every `DIR/human-evaluations/<id>.json` into a map keyed by id. Requests are answered from the map alone:
 * an id from a URL never becomes part of a file path, so no id can reach outside the folder.
 */
export function loadFixtures(dir: string): Map<string, Fixture> {
  const folder = join(dir, 'human-evaluations');
  let names: string[];
  try {
    names = readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
      .map((entry) => entry.name)
      .sort();
  } catch {
    throw new FixtureError(`fixtures: ${folder} is not a readable folder (expected DIR/human-evaluations/<id>.json files)`);
  }
  const fixtures = new Map<string, Fixture>();
  const problems: string[] = [];
  for (const name of names) {
    const id = name.slice(0, -'.json'.length);
    const loaded = loadFile(join(folder, name), id);
    if (loaded.fixture) fixtures.set(id, loaded.fixture);
    problems.push(...loaded.problems);
  }
  if (problems.length > 0) throw new FixtureError(`fixtures: ${problems.length} problem(s), the mock did not start:\n  ${problems.join('\n  ')}`);
  return fixtures;
}
