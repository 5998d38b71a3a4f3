import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * `Prefer: latency` in a plain Node process: `node --test` runs latency-node-test.mjs against the built evalkit/msw,
 * msw/node's setupServer included.
 */
describe('evalkit/msw in node --test', () => {
  it('a fetch waiting out latency=300 keeps the process alive, prints its answer, exits 0', () => {
    const run = spawnSync(process.execPath, ['--test', here('latency-node-test.mjs')], { encoding: 'utf8' });
    expect(run.stdout).toMatch(/^# answer: 200, Preference-Applied: latency=300$/m);
    expect(run.status).toBe(0);
  });
});
