import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { basename, join, posix } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinsIn, bundleForBrowser } from '../../bench/browser-bundle.js';
import { startChild } from '../mock/processes.js';
import { readmeSnippet } from '../readme/snippet.js';
import { expectConsumerAgrees } from './consumer-checks.js';
import { linkFromCheckout, packOnce, thisNode, unpackConsumer } from './consumer-project.js';
import {
  commonJsLibCheck,
  expectedErrors,
  moduleSettings,
  plantStrictConsumer,
  settingName,
  strictErrors,
} from './strict-consumer.js';
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

const tarball = packOnce();

/**
 * Where most users are: Node 20 (this node), with the tarball unpacked as npm lays it out and its dependencies, msw
 * (this checkout's, 2) and openapi-fetch (for the strict TypeScript consumer below) linked from the checkout
 * (`unpackConsumer`); TypeScript and Vitest are linked too. npm's install of the tarball (engines, scripts, msw's floor
 * 2.11.0 on Node 20, the latest msw on Node 22 and 24) is test/pack/matrix.test.ts's (`npm run test:install`).
 */
const project = unpackConsumer(tarball.tarball, ['msw', 'openapi-fetch']);

afterAll(removeTempDirs);

describe('the tarball', () => {
  it('holds a LICENSE, no dev-only code, every relative import it makes', () => {
    expect(tarball.files).toContain('LICENSE');
    expect(tarball.files.filter((path) => /^dist\/(bench|scripts|test)\//.test(path))).toEqual([]);
    expect(unshippedImports(tarball.files)).toEqual([]);
  });
});

/** tsc and the processes these tests start take several times their quiet seconds under load. */
const underLoad = { timeout: 240_000 };

describe.concurrent('unpacked into an empty project under Node 20 with msw 2', underLoad, () => {
  it('answers GET and POST through msw/node like the installed `evalkit mock`, byte for byte', async ({ expect }) => {
    await expectConsumerAgrees(expect, project, thisNode);
  });

  it('bundles evalkit/msw and evalkit/factories for the browser with no Node built-in', async ({ expect }) => {
    const { dir } = project;
    const app = join(dir, 'app.js');
    writeFileSync(app, "export { handlers } from 'evalkit/msw';\nexport { build } from 'evalkit/factories';\n");
    const { code, metafile } = await bundleForBrowser(app);
    expect(builtinsIn(metafile, builtinModules)).toEqual([]);
    expect(code.length).toBeGreaterThan(0);
  });
});

/**
 * The packed tarball in a strict TypeScript project (the Node 20 one, with openapi-fetch and the linked TypeScript),
 * type-checked under each module setting a consumer may have, a CommonJS file among them: the planted mistakes are the
 * only errors.
 */
describe.concurrent('a strict TypeScript consumer of the packed tarball', underLoad, () => {
  it('only the planted mistakes fail (the README snippet passes) under node16, bundler, commonjs; .cts runs', async ({
    expect,
  }) => {
    const { dir } = project;
    linkFromCheckout(project, 'typescript');
    plantStrictConsumer(dir);
    // The README's "In other projects" snippet compiles as written against the installed package (its tests run in
    // test/readme/other-projects-snippet.test.ts): under node16, beside the planted files, with no error of its own.
    const snippet = basename(
      readmeSnippet('In other projects: types, factories, `paths`', 'readme-other-projects', dir),
    );
    linkFromCheckout(project, 'vitest');
    const results = await strictErrors(dir, moduleSettings, [snippet], commonJsLibCheck);
    expect(results.at(-1), 'the .cts with skipLibCheck off').toEqual([]);
    for (const [index, setting] of moduleSettings.entries()) {
      const errors = results[index] as string[];
      expect(errors, settingName(setting)).toHaveLength(expectedErrors.length);
      expectedErrors.forEach((pattern, at) => expect(errors[at], settingName(setting)).toMatch(pattern));
    }
    // The CommonJS file, emitted as require() calls, runs: Node 20.19+ requires the ES module.
    expect(readFileSync(join(dir, 'out', 'commonjs.cjs'), 'utf8')).toMatch(/require\("evalkit\/factories"\)/);
    const { stdout } = await promisify(execFile)(process.execPath, ['out/commonjs.cjs'], { cwd: dir });
    expect(stdout).toBe('EVALUATION_FAILED\n');
  });

  it('serves the committed fixtures from node_modules/evalkit/fixtures/mock, every id, --strict-ids', async ({
    expect,
  }) => {
    const { dir } = project;
    const fixtures = join('node_modules', 'evalkit', 'fixtures', 'mock');
    const ids = readdirSync(join(dir, fixtures, 'human-evaluations')).map((file) => file.slice(0, -'.json'.length));
    expect(ids.length).toBeGreaterThan(0);
    const bin = 'node_modules/evalkit/bin/evalkit.js';
    // The checkout's path, typed in a project: refused in one line naming the installed copy.
    const typed = await promisify(execFile)(process.execPath, [bin, 'mock', '--fixtures', 'fixtures/mock'], {
      cwd: dir,
    }).then(
      ({ stderr }) => ({ code: 0, stderr }),
      (error: { code: number; stderr: string }) => error,
    );
    expect([typed.code, typed.stderr]).toEqual([
      2,
      `evalkit mock: --fixtures: no folder fixtures/mock here; did you mean ${fixtures} ` +
        '(the fixtures evalkit ships)?\n',
    ]);
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
  });
});
