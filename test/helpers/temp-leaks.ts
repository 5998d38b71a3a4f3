import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The temporary dir's entries named as evalkit's tests and benches name what they make there. */
function evalkitEntries(): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith('evalkit-'));
}

/**
 * The global setup that keeps the system's temporary dir from filling over CI runs: after the run (every other
 * teardown included: it is first in the list, so its teardown is last), each `evalkit-*` entry made during the run
 * and still there is named on one line. What was there at the start (another run's leftovers) does not count. It
 * names, and does not fail the run: a run beside this one on the same machine (a developer's second terminal) may
 * have folders of its own open, and a verdict on the product must not hang on them.
 */
export default function setup(): () => void {
  const before = new Set(evalkitEntries());
  return () => {
    const left = evalkitEntries().filter((name) => !before.has(name));
    for (const name of left)
      console.error(`left in the temporary dir by this run: ${join(tmpdir(), name)} (use tempDir, removeTempDirs)`);
  };
}
