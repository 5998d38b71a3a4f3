import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { recordFolder } from '../../api/operations.js';
import type { FixtureStatus } from '../control/admin-routes.js';
import { FixtureError, type Fixture } from '../core/fixture-set.js';
import { loadFixtureFolder } from './fixtures-folder.js';

/** Editors write a file in several steps (truncate, write, rename): one reload once they have settled. */
const fixtureReloadDebounceMs = 100;

/**
 * Reloads `--fixtures DIR` when a file in its record folder (recordFolder, api/operations.ts) changes. The set is
 * replaced in place only when the whole folder loads; a broken file keeps the previous set in use, and its problems are
 * logged and kept for the dashboard until a reload succeeds.
 */
export class FixtureWatcher {
  private readonly watcher: FSWatcher;
  private timer: NodeJS.Timeout | undefined;
  private state: FixtureStatus;

  constructor(
    private readonly dir: string,
    /** The map the core serves from: updated in place, between two requests. */
    private readonly fixtures: Map<string, Fixture>,
    private readonly log: (line: string) => void,
    private readonly changed: (status: FixtureStatus) => void,
  ) {
    this.state = { dir, fixtures: fixtures.size, loaded_at: new Date().toISOString(), problems: [], failed_at: null };
    this.watcher = watch(join(dir, recordFolder), () => this.schedule());
    // Watching is a convenience: it must not keep a process alive, nor crash it when the folder goes away.
    this.watcher.unref();
    this.watcher.on('error', (error) => this.log(`evalkit mock: fixtures: stopped watching ${dir} (${error.message})`));
  }

  status(): FixtureStatus {
    return this.state;
  }

  close(): void {
    clearTimeout(this.timer);
    this.watcher.close();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.reload(), fixtureReloadDebounceMs).unref();
  }

  private reload(): void {
    try {
      const next = loadFixtureFolder(this.dir);
      this.fixtures.clear();
      for (const [id, fixture] of next) this.fixtures.set(id, fixture);
      this.state = {
        dir: this.dir,
        fixtures: next.size,
        loaded_at: new Date().toISOString(),
        problems: [],
        failed_at: null,
      };
      this.log(`evalkit mock: fixtures: reloaded ${next.size} fixture(s) from ${this.dir}`);
    } catch (error) {
      const problems = error instanceof FixtureError ? [...error.problems] : [(error as Error).message];
      this.state = { ...this.state, problems, failed_at: new Date().toISOString() };
      this.log(
        `evalkit mock: fixtures: reload refused, still serving the previous ${this.fixtures.size} ` +
          `fixture(s):\n  ${problems.join('\n  ')}`,
      );
    }
    this.changed(this.state);
  }
}
