import { readdirSync } from 'node:fs';
import { readBoundedSync, readFailure } from '../../http/bounded-read.js';
import { join } from 'node:path';
import { recordFolder } from '../../api/operations.js';
import { checkFixture, fixtureMap, FixtureError, type CheckedFixture, type Fixture } from '../core/fixture-set.js';

/** A record is some KB; a fixture file past this is no record, and is not read to its end. */
const fixtureFileLimit = 16 * 2 ** 20;

function loadFile(file: string, id: string): CheckedFixture {
  let text: string;
  try {
    text = readBoundedSync(file, fixtureFileLimit);
  } catch (error) {
    return { problems: [`${file}: cannot be read (${readFailure(error)})`] };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return {
      problems: [`${file}: not valid JSON (${(error as Error).message.replace(/, ".*" is not valid JSON$/s, '')})`],
    };
  }
  return checkFixture(file, data, id);
}

/**
 * Reads every `DIR/<recordFolder>/<id>.json` (api/operations.ts) into a map keyed by id (fixtureMap): an id from a URL
 * never becomes part of a file path, so no id can reach outside the folder.
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
  // checkFixture holds each record's id to its file name, so the map's keys are the file names.
  return fixtureMap(names.map((name) => loadFile(join(folder, name), name.slice(0, -'.json'.length))));
}
