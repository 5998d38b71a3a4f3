import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/cli.js';

/**
 * The layer rules of eslint.config.js, proved to bite: one planted import per zone, each one its layer may not make.
 * That the tree as it is keeps them is `npm run lint`'s to show (eslint over the whole tree), which `.ci/run` runs
 * after the tests: once, not again here.
 */
const eslint = new ESLint({ cwd: projectRoot });

/** The layer rule's messages for `code` as if it were the file at `path` in the tree. */
async function layerErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(projectRoot, path) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

/**
 * Each zone of eslint.config.js (by its folder; a package entry is a zone of its own files), with an import from below
 * that it refuses.
 */
const plantedBreaks: Array<[zone: string, what: string, path: string, code: string]> = [
  ['schemas/', 'a Node built-in', 'schemas/planted.ts', "import { readFile } from 'node:fs';"],
  ['schemas/', 'a layer below', 'schemas/planted.ts', "import { main } from '../cli/main.js';"],
  ['api/', 'a layer below', 'api/planted.ts', "import { build } from '../generators/factories.js';"],
  ['http/', 'a layer below', 'http/planted.ts', "import { createMockCore } from '../mock/index.js';"],
  ['generators/', 'a layer below', 'generators/planted.ts', "import { diffDocuments } from '../diff/changes.js';"],
  ['mock/', 'the contract', 'mock/node/planted.ts', "import { runContract } from '../../contract/index.js';"],
  ['mock/core/', 'a Node built-in', 'mock/core/planted.ts', "import { readFile } from 'node:fs';"],
  ['mock/core/', 'an adapter', 'mock/core/planted.ts', "import { startMockServer } from '../node/server.js';"],
  ['mock/core/', 'the Fetch adapter', 'mock/core/planted.ts', "import { handleFetch } from '../fetch/fetch.js';"],
  ['mock/control/', 'an adapter', 'mock/control/planted.ts', "import { createHandlers } from '../msw/index.js';"],
  ['contract/', 'the proxy', 'contract/run/planted.ts', "import { startContractProxy } from '../../proxy/index.js';"],
  ['contract/judge/', 'the run', 'contract/judge/planted.ts', "import { runContract } from '../run/run.js';"],
  ['contract/judge/', 'a report', 'contract/judge/planted.ts', "import { jsonReport } from '../report/json.js';"],
  ['contract/report/', 'the run', 'contract/report/planted.ts', "import { runContract } from '../run/run.js';"],
  [
    'contract/compare/',
    'the mock',
    'contract/compare/planted.ts',
    "import { createMockCore } from '../../mock/index.js';",
  ],
  ['contract/compare/', 'the run', 'contract/compare/planted.ts', "import { runContract } from '../run/run.js';"],
  ['diff/', 'the contract', 'diff/planted.ts', "import { catalogue } from '../contract/judge/catalogue.js';"],
  ['proxy/', 'the run', 'proxy/planted.ts', "import { runContract } from '../contract/run/run.js';"],
  ['proxy/', 'diff', 'proxy/planted.ts', "import { diffDocuments } from '../diff/changes.js';"],
  ['contract/index.ts', 'the CLI', 'contract/index.ts', "import { main } from '../cli/main.js';"],
  ['index.ts', 'the CLI', 'index.ts', "import { main } from './cli/main.js';"],
];

const folders = [...new Set(plantedBreaks.map(([zone]) => zone).filter((zone) => zone.endsWith('/')))];

/**
 * Every break of a zone, planted in each zone inside it (`mock/` in `mock/core/` and `mock/control/`): an inner zone
 * replaces its parent's rule for its files, so it must carry the parent's patterns too.
 */
const inheritedBreaks = plantedBreaks.flatMap(([zone, what, , code]) =>
  folders
    .filter((inner) => inner !== zone && zone.endsWith('/') && inner.startsWith(zone))
    .map((inner): [string, string, string, string] => [inner, `${zone}'s ${what}`, `${inner}planted.ts`, code]),
);

describe('the layers', () => {
  it.each(plantedBreaks)('%s refuses a planted import of %s', async (_, __, path, code) => {
    expect(await layerErrors(path, `${code}\n\nexport const planted = 1;\n`)).toHaveLength(1);
  });

  it.each(inheritedBreaks)('%s refuses %s too: zones compose', async (_, __, path, code) => {
    expect(await layerErrors(path, `${code}\n\nexport const planted = 1;\n`)).toHaveLength(1);
  });

  it('has an inner zone to check composition in, and a planted break for every zone of the config', async () => {
    expect(inheritedBreaks.length).toBeGreaterThanOrEqual(5);
    const configFile = pathToFileURL(join(projectRoot, 'eslint.config.js')).href;
    const config = (await import(configFile)) as { default: Array<{ files?: string[]; rules?: object }> };
    const zones = config.default
      .filter((entry) => entry.rules && 'no-restricted-imports' in entry.rules)
      .flatMap((entry) => entry.files ?? [])
      .map((glob) => glob.replace(/\*\*$/, ''));
    expect(zones.filter((zone) => !plantedBreaks.some(([planted]) => planted === zone))).toEqual([]);
  });

  it('let the same files import what their layer may', async () => {
    expect(await layerErrors('mock/node/planted.ts', "import { pathFor } from '../../api/match.js';\n")).toEqual([]);
    expect(await layerErrors('contract/index.ts', "import { startContractProxy } from '../proxy/index.js';\n")).toEqual(
      [],
    );
  });
});
