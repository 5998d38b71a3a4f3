import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { hasChromium, mswInit, noChromium } from '../browser/chromium.js';
import { createMockApp } from '../../mock/index.js';
import type { CorpusRequest } from '../msw/corpus.js';
import { observeExpress } from '../msw/observe.js';
import { readmeBlock, readmeSnippet, runBrowserSnippet } from '../readme/snippet.js';
import { expectConsumerAgrees } from './consumer-checks.js';
import {
  envFor,
  installComplaints,
  installConsumer,
  installedVersion,
  linkFromCheckout,
  nodeFromRegistry,
  packOnce,
  run,
  thisNode,
} from './consumer-project.js';
import { removeTempDirs } from '../helpers/temp-dirs.js';

/**
 * npm's install of the tarball, on the lines the README names, in `npm run test:install` (each is an install from the
 * registry and npm's cache: test/pack/pack.test.ts, in `npm test`, checks the unpacked package under Node 20). Node 20
 * (this node) with msw's floor, 2.11.0; Node 22 from the registry with the latest msw; the same project run by
 * Node 24. A failure to get a Node fails its tests, saying so.
 */
if (!hasChromium) console.warn(`the README's browser snippet in the installed package is not run: ${noChromium}`);

const tarball = packOnce();
const floor = installConsumer(thisNode, [tarball.tarball, 'msw@2.11.0']);
const node22 = nodeFromRegistry(22);
const project = node22.then((node) => installConsumer(node, [tarball.tarball, 'msw@latest']));
// Marked handled here; each test awaits them and fails with its reason.
floor.catch(() => undefined);
project.catch(() => undefined);

afterAll(async () => {
  await Promise.allSettled([floor, project]);
  removeTempDirs();
});

describe.concurrent('installed into an empty project: Node 20 with msw 2.11.0, the floor of its peer range', () => {
  it('installs with no unsupported engine and no install script of evalkit left for review', async ({ expect }) => {
    const installed = await floor;
    expect(installComplaints(installed.installOutput)).toEqual([]);
    expect(installedVersion(installed.dir, 'msw')).toBe('2.11.0');
  });

  it('answers GET and POST through msw/node like the installed `evalkit mock`, byte for byte', async ({ expect }) => {
    await expectConsumerAgrees(expect, await floor, thisNode);
  });
});

describe.concurrent('installed into an empty project: Node 22 (from the registry) with the latest msw', () => {
  it('installs with no unsupported engine and no install script of evalkit left for review', async ({ expect }) => {
    const [installed, node] = await Promise.all([project, node22]);
    expect(installComplaints(installed.installOutput)).toEqual([]);
    expect(installedVersion(installed.dir, 'msw').split('.')[0]).toBe('3');
    expect(await run(node.execPath, ['-p', 'process.version'], { cwd: installed.dir })).toMatch(/^v22\./);
  });

  it('answers GET and POST through msw/node like the installed `evalkit mock`, byte for byte', async ({ expect }) => {
    const [installed, node] = await Promise.all([project, node22]);
    await expectConsumerAgrees(expect, installed, node);
  });

  // The snippet as written is test/readme/node-snippet.test.ts's; here it runs against the installed package.
  it("passes the README's msw/node snippet, as written, under Vitest in the project", async ({ expect }) => {
    const [installed, node] = await Promise.all([project, node22]);
    readmeSnippet('In Vitest/Jest with msw/node', 'readme-msw-node.test', installed.dir);
    const tests = readmeBlock('In Vitest/Jest with msw/node', 'ts').match(/^test\(/gm)?.length ?? 0;
    expect(tests).toBeGreaterThan(0);
    const vitest = join(linkFromCheckout(installed, 'vitest'), 'vitest.mjs');
    const output = await run(node.execPath, [vitest, 'run'], { cwd: installed.dir, env: envFor(node) });
    expect(output).toMatch(new RegExp(`Tests\\s+${tests} passed \\(${tests}\\)`));
  });

  it.skipIf(!hasChromium)(
    "runs the README's browser snippet, as written, in Chromium: the answer is `evalkit mock`'s",
    async ({ expect }) => {
      const [installed, node] = await Promise.all([project, node22]);
      const entry: CorpusRequest = { name: 'GET', method: 'GET', path: '/human-evaluations/6637c0a25368ef07b03a64cd' };
      const snippet = readmeSnippet('In the browser / Storybook', 'readme-browser', installed.dir);
      const worker = mswInit(join(installed.dir, 'node_modules/msw'), node.execPath);
      const { session, answer } = await runBrowserSnippet(snippet, `/api${entry.path}`, worker);
      try {
        expect(session.errors).toEqual([]);
        expect(answer.status).toBe(200);
        // The mock `evalkit mock --base-path /api --seed storybook` serves (the installed bin runs in consumer.mjs).
        const app = createMockApp({ basePath: '/api', seed: 'storybook' });
        expect(answer).toEqual(await observeExpress(app, '/api', entry));
      } finally {
        await session.close();
      }
    },
  );
});

/**
 * Node 24 runs the Node 22 project: the package is plain JavaScript with no native part, so its node_modules serve,
 * and one more install would only repeat npm's work.
 */
describe('the Node 22 project, run by Node 24 from the registry', () => {
  it('answers GET and POST through msw/node like the installed `evalkit mock`, byte for byte', async ({ expect }) => {
    const node24 = await nodeFromRegistry(24);
    expect(node24.version).toMatch(/^v24\./);
    await expectConsumerAgrees(expect, await project, node24);
  });
});
