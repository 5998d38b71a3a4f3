import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExpectStatic } from 'vitest';
import { projectRoot } from '../helpers/cli.js';
import { run, type ConsumerProject, type NodeRuntime } from './consumer-project.js';

/**
 * consumer.mjs, run in the project by `node`: msw/node with evalkit/msw and the installed `evalkit mock` answer GET and
 * POST alike, byte for byte.
 */
export async function expectConsumerAgrees(
  expect: ExpectStatic,
  project: ConsumerProject,
  node: NodeRuntime,
): Promise<void> {
  copyFileSync(join(projectRoot, 'test/pack/consumer.mjs'), join(project.dir, 'consumer.mjs'));
  const output = await run(node.execPath, ['consumer.mjs'], { cwd: project.dir });
  const fetched = 'GET /human-evaluations/6637c0a25368ef07b03a64cd';
  expect(output).toMatch(new RegExp(`^${fetched}: msw 200, evalkit mock 200, \\d+ bytes, valid, byte-identical$`, 'm'));
  expect(output).toMatch(/^POST \/evaluations: msw 200, evalkit mock 200, \d+ bytes, valid, byte-identical$/m);
  expect(output).toMatch(/^pack check: passed$/m);
}
