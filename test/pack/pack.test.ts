import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { basename, join, posix } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, type ExpectStatic } from 'vitest';
import { builtinsIn, bundleForBrowser } from '../../bench/browser-bundle.js';
import { hasChromium, mswInit, noChromium } from '../browser/chromium.js';
import { createMockApp } from '../../mock/index.js';
import { startChild } from '../mock/processes.js';
import type { CorpusRequest } from '../msw/corpus.js';
import { observeExpress } from '../msw/observe.js';
import { readmeBlock, readmeSnippet, runBrowserSnippet } from '../readme/snippet.js';
import {
  envFor,
  installComplaints,
  installConsumer,
  installedVersion,
  nodeFromRegistry,
  packOnce,
  run,
  thisNode,
  type ConsumerProject,
  type NodeRuntime,
} from './consumer-project.js';
import { expectedErrors, moduleSettings, plantStrictConsumer, strictErrors } from './strict-consumer.js';
import { projectRoot } from '../helpers/cli.js';
import { removeTempDirs } from '../helpers/temp-dirs.js';

/** `file -> import` for each relative import of a shipped module that the tarball does not hold. */
function unshippedImports(shipped: string[]): string[] {
  const held = new Set(shipped);
  return shipped
    .filter((path) => path.endsWith('.js'))
    .flatMap((path) =>
      [...readFileSync(join(projectRoot, path), 'utf8').matchAll(/(?:from|import\()\s*'(\.\.?\/[^']+)'/g)]
        .map((match) => posix.join(posix.dirname(path), match[1] as string))
        .filter((target) => !held.has(target))
        .map((target) => `${path} -> ${target}`),
    );
}

if (!existsSync(join(projectRoot, 'dist/mock/msw/index.js')))
  throw new Error('dist/ has no evalkit/msw: run `npm run build` first');
if (!hasChromium) console.warn(`the README's browser snippet in the installed package is not run: ${noChromium}`);

const tarball = packOnce();

/**
 * Where users are: Node 20 with msw 2 (its floor, 2.11.0: the latest msw 2 is what evalkit's own tests run) and Node 22
 * from the registry with the latest msw. Both installs start at once (npm waits on the cache and the network more
 * than on the CPU); a failure to get Node 22 fails its tests, saying so. Vitest is not installed: this checkout's is
 * linked into each project (`withVitest`), the part of an install that would show nothing of evalkit's.
 */
const runtimes = [
  {
    name: 'Node 20 (this node) with msw 2.11.0',
    node: () => Promise.resolve(thisNode),
    // The strict TypeScript consumer's tools too (below): one install where two would repeat npm's work.
    packages: [
      'msw@2.11.0',
      `typescript@${installedVersion(projectRoot, 'typescript')}`,
      `openapi-fetch@${installedVersion(projectRoot, 'openapi-fetch')}`,
    ],
    major: 2,
  },
  {
    name: 'Node 22 (from the registry) with the latest msw',
    node: () => nodeFromRegistry(22),
    packages: ['msw@latest'],
    major: 3,
  },
].map((runtime) => {
  const project = runtime.node().then((node) => installConsumer(node, [tarball.tarball, ...runtime.packages]));
  // Marked handled here; each test awaits it and fails with its reason.
  project.catch(() => undefined);
  return { ...runtime, project };
});

afterAll(async () => {
  await Promise.allSettled(runtimes.map((runtime) => runtime.project));
  removeTempDirs();
});

/**
 * This checkout's Vitest, linked into the project's node_modules (npm would only fetch the same again): the snippet's
 * `vitest` import resolves to it, its `msw/node` and `evalkit/*` to the project's installs.
 */
function withVitest(project: ConsumerProject): string {
  const link = join(project.dir, 'node_modules/vitest');
  try {
    symlinkSync(join(projectRoot, 'node_modules/vitest'), link, 'dir');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return join(link, 'vitest.mjs');
}

/**
 * consumer.mjs, run in the project by `node`: msw/node with evalkit/msw and the installed `evalkit mock` answer GET and
 * POST alike, byte for byte.
 */
async function expectConsumerAgrees(expect: ExpectStatic, project: ConsumerProject, node: NodeRuntime): Promise<void> {
  copyFileSync(join(projectRoot, 'test/pack/consumer.mjs'), join(project.dir, 'consumer.mjs'));
  const output = await run(node.execPath, ['consumer.mjs'], { cwd: project.dir });
  const fetched = 'GET /human-evaluations/6637c0a25368ef07b03a64cd';
  expect(output).toMatch(new RegExp(`^${fetched}: msw 200, evalkit mock 200, \\d+ bytes, valid, byte-identical$`, 'm'));
  expect(output).toMatch(/^POST \/evaluations: msw 200, evalkit mock 200, \d+ bytes, valid, byte-identical$/m);
  expect(output).toMatch(/^pack check: passed$/m);
}

describe('the tarball', () => {
  it('holds a LICENSE, no dev-only code, every relative import it makes', () => {
    expect(tarball.files).toContain('LICENSE');
    expect(tarball.files.filter((path) => /^dist\/(bench|scripts|test)\//.test(path))).toEqual([]);
    expect(unshippedImports(tarball.files)).toEqual([]);
  });
});

describe.concurrent.each(runtimes)('installed into an empty project: $name', ({ node, project: installed, major }) => {
  it('installs with no unsupported engine and no install script of evalkit left for review', async ({ expect }) => {
    const [project, runtime] = await Promise.all([installed, node()]);
    expect(installComplaints(project.installOutput)).toEqual([]);
    expect(installedVersion(project.dir, 'msw').split('.')[0]).toBe(String(major));
    expect(await run(runtime.execPath, ['-p', 'process.version'], { cwd: project.dir })).toMatch(
      runtime === thisNode ? /^v20\./ : /^v22\./,
    );
  }, 240_000);

  it('answers GET and POST through msw/node like the installed `evalkit mock`, byte for byte', async ({ expect }) => {
    const [project, runtime] = await Promise.all([installed, node()]);
    await expectConsumerAgrees(expect, project, runtime);
  }, 240_000);

  // Under msw 3 only: the snippet as written is test/readme/node-snippet.test.ts's, and msw/node with msw 2.11.0 from
  // the installed package consumer.mjs's.
  if (major === 3)
    it("passes the README's msw/node snippet, as written, under Vitest in the project", async ({ expect }) => {
      const [project, runtime] = await Promise.all([installed, node()]);
      readmeSnippet('In Vitest/Jest with msw/node', 'readme-msw-node.test', project.dir);
      const tests = readmeBlock('In Vitest/Jest with msw/node', 'ts').match(/^test\(/gm)?.length ?? 0;
      expect(tests).toBeGreaterThan(0);
      const vitest = withVitest(project);
      const output = await run(runtime.execPath, [vitest, 'run'], { cwd: project.dir, env: envFor(runtime) });
      expect(output).toMatch(new RegExp(`Tests\\s+${tests} passed \\(${tests}\\)`));
    }, 240_000);

  it.skipIf(!hasChromium)(
    "runs the README's browser snippet, as written, in Chromium: the answer is `evalkit mock`'s",
    async ({ expect }) => {
      const [project, runtime] = await Promise.all([installed, node()]);
      const entry: CorpusRequest = { name: 'GET', method: 'GET', path: '/human-evaluations/6637c0a25368ef07b03a64cd' };
      const snippet = readmeSnippet('In the browser / Storybook', 'readme-browser', project.dir);
      const worker = mswInit(join(project.dir, 'node_modules/msw'), runtime.execPath);
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
    240_000,
  );

  it('bundles evalkit/msw and evalkit/factories for the browser with no Node built-in', async ({ expect }) => {
    const project = await installed;
    const app = join(project.dir, 'app.js');
    writeFileSync(app, "export { handlers } from 'evalkit/msw';\nexport { build } from 'evalkit/factories';\n");
    const { code, metafile } = await bundleForBrowser(app);
    expect(builtinsIn(metafile, builtinModules)).toEqual([]);
    expect(code.length).toBeGreaterThan(0);
  }, 240_000);
});

/**
 * Node 24, the newest line the README names, runs the same install: the package is plain JavaScript with no native
 * part, so the Node 22 project's node_modules serve it, and one more install would only repeat npm's work.
 */
describe.concurrent('the Node 22 project, run by Node 24 from the registry', () => {
  it('answers GET and POST through msw/node like the installed `evalkit mock`, byte for byte', async ({ expect }) => {
    const project = await (runtimes[1] as (typeof runtimes)[number]).project;
    const node24 = await nodeFromRegistry(24);
    expect(node24.version).toMatch(/^v24\./);
    await expectConsumerAgrees(expect, project, node24);
  }, 240_000);
});

/**
 * The packed tarball in a strict TypeScript project (the Node 20 one, with TypeScript and openapi-fetch), type-checked
 * under each module setting a consumer may have, a CommonJS file among them: the planted mistakes are the only errors.
 */
describe.concurrent('a strict TypeScript consumer of the packed tarball', () => {
  const node20 = (runtimes[0] as (typeof runtimes)[number]).project;

  it('only the planted mistakes fail (the README snippet passes) under node16, bundler, commonjs; .cts runs', async ({
    expect,
  }) => {
    const project = await node20;
    const { dir } = project;
    plantStrictConsumer(dir);
    // The README's "In other projects" snippet compiles as written against the installed package (its tests run in
    // test/readme/other-projects-snippet.test.ts): under node16, beside the planted files, with no error of its own.
    const snippet = basename(
      readmeSnippet('In other projects: types, factories, `paths`', 'readme-other-projects', dir),
    );
    withVitest(project);
    const results = await Promise.all(
      moduleSettings.map((setting, index) => strictErrors(dir, setting, index === 0 ? [snippet] : [])),
    );
    for (const [index, setting] of moduleSettings.entries()) {
      const errors = results[index] as string[];
      expect(errors, setting.join(' ')).toHaveLength(expectedErrors.length);
      expectedErrors.forEach((pattern, at) => expect(errors[at], setting.join(' ')).toMatch(pattern));
    }
    // The CommonJS file, emitted as require() calls, runs: Node 20.19+ requires the ES module.
    expect(readFileSync(join(dir, 'out', 'commonjs.cjs'), 'utf8')).toMatch(/require\("evalkit\/factories"\)/);
    const { stdout } = await promisify(execFile)(process.execPath, ['out/commonjs.cjs'], { cwd: dir });
    expect(stdout).toBe('EVALUATION_FAILED\n');
  }, 240_000);

  it('serves the committed fixtures from node_modules/evalkit/fixtures/mock, every id, --strict-ids', async ({
    expect,
  }) => {
    const { dir } = await node20;
    const fixtures = join('node_modules', 'evalkit', 'fixtures', 'mock');
    const ids = readdirSync(join(dir, fixtures, 'human-evaluations')).map((file) => file.slice(0, -'.json'.length));
    expect(ids.length).toBeGreaterThan(0);
    const bin = 'node_modules/evalkit/bin/evalkit.js';
    const mock = startChild(
      process.execPath,
      [bin, 'mock', '--port', '0', '--fixtures', fixtures, '--strict-ids'],
      dir,
    );
    try {
      const [, url] = await mock.waitFor(/listening on (http:\/\/\S+)/, 20_000);
      for (const id of ids) expect((await fetch(`${url}/human-evaluations/${id}`)).status, id).toBe(200);
      expect((await fetch(`${url}/human-evaluations/not-a-fixture`)).status).toBe(404);
    } finally {
      mock.kill();
    }
  }, 240_000);
});
