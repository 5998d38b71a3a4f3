import { readFileSync } from 'node:fs';
import { parseScenarioFile } from '../core/scenario-book.js';
import { ScenarioError } from '../core/scenarios.js';

/** Reads and checks a scenario config file; any problem stops the start with the file and the entry at fault. */
export function readScenarioFile(path: string): unknown {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ScenarioError(
      `${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not valid JSON'}`,
    );
  }
  try {
    parseScenarioFile(data);
  } catch (error) {
    throw new ScenarioError(`${path}: ${(error as Error).message}`);
  }
  return data;
}
