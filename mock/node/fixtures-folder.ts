import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordFolder } from '../../api/operations.js';
import { checkFixture, failOnProblems, FixtureError, type Fixture } from '../core/fixture-set.js';

function loadFile(file: string, id: string): { fixture?: Fixture; problems: string[] } {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return {
      problems: [`${file}: not valid JSON (${(error as Error).message.replace(/, ".*" is not valid JSON$/s, '')})`],
    };
  }
  return checkFixture(file, data, id);
}

/**
 * Reads every `DIR/<recordFolder>/<id>.json` (api/operations.ts) into a map keyed by id. Requests are answered from the
 * map alone: an id from a URL never becomes part of a file path, so no id can reach outside the folder.
 */
export function loadFixtureFolder(dir: string): Map<string, Fixture> {
  const folder = join(dir, recordFolder);
  let names: string[];
  try {
    names = readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
      .map((entry) => entry.name)
      .sort();
  } catch {
    throw new FixtureError(
      `fixtures: ${folder} is not a readable folder (expected DIR/${recordFolder}/<id>.json files)`,
    );
  }
  const fixtures = new Map<string, Fixture>();
  const problems: string[] = [];
  for (const name of names) {
    const id = name.slice(0, -'.json'.length);
    const loaded = loadFile(join(folder, name), id);
    if (loaded.fixture) fixtures.set(id, loaded.fixture);
    problems.push(...loaded.problems);
  }
  failOnProblems(problems);
  return fixtures;
}
