import { statSync } from 'node:fs';
import { FileTooLarge, readBoundedSync, readFailure } from '../../http/bounded-read.js';
import { parseScenarioFile } from '../core/scenario-book.js';
import { ScenarioError } from '../core/scenarios.js';

/** A scenario file is a few hundred bytes; past a MiB it is none (`/dev/zero` is one such path). */
const scenarioFileLimit = 2 ** 20;

/** Why a path cannot be read as a file, in a user's words: its error code otherwise. */
function unreadable(error: unknown): string {
  if (error instanceof FileTooLarge) return error.message;
  return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : `cannot be read (${readFailure(error)})`;
}

/** Reads and checks a scenario config file; any problem stops the start with the file and the entry at fault. */
export function readScenarioFile(path: string): unknown {
  let text: string;
  try {
    // A folder would read as EISDIR; a pipe is read (`--scenarios <(…)` is one).
    if (statSync(path).isDirectory()) throw new ScenarioError(`${path}: a folder, not a file`);
    text = readBoundedSync(path, scenarioFileLimit);
  } catch (error) {
    if (error instanceof ScenarioError) throw error;
    throw new ScenarioError(`${path}: ${unreadable(error)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ScenarioError(`${path}: not valid JSON`);
  }
  try {
    parseScenarioFile(data);
  } catch (error) {
    throw new ScenarioError(`${path}: ${(error as Error).message}`);
  }
  return data;
}
