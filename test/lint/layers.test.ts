import { join } from 'node:path';
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

/** Each zone of eslint.config.js, with an import from below that it refuses. */
const plantedBreaks: Array<[zone: string, path: string, code: string]> = [
  ['schemas/ (a Node built-in)', 'schemas/planted.ts', "import { readFile } from 'node:fs';"],
  ['schemas/ (a layer below)', 'schemas/planted.ts', "import { main } from '../cli/main.js';"],
  ['api/', 'api/planted.ts', "import { build } from '../generators/factories.js';"],
  ['http/', 'http/planted.ts', "import { createMockCore } from '../mock/index.js';"],
  ['generators/', 'generators/planted.ts', "import { diffDocuments } from '../diff/changes.js';"],
  ['mock/', 'mock/node/planted.ts', "import { runContract } from '../../contract/index.js';"],
  ['mock/core/ (a Node built-in)', 'mock/core/planted.ts', "import { readFile } from 'node:fs';"],
  ['mock/core/ (an adapter)', 'mock/core/planted.ts', "import { startMockServer } from '../node/server.js';"],
  ['mock/control/', 'mock/control/planted.ts', "import { createHandlers } from '../msw/index.js';"],
  ['contract/', 'contract/run/planted.ts', "import { startContractProxy } from '../../proxy/index.js';"],
  ['contract/judge/ (the run)', 'contract/judge/planted.ts', "import { runContract } from '../run/run.js';"],
  ['contract/judge/ (a report)', 'contract/judge/planted.ts', "import { jsonReport } from '../report/json.js';"],
  ['contract/report/', 'contract/report/planted.ts', "import { runContract } from '../run/run.js';"],
  ['contract/compare/', 'contract/compare/planted.ts', "import { createMockCore } from '../../mock/index.js';"],
  ['contract/compare/ (the run)', 'contract/compare/planted.ts', "import { runContract } from '../run/run.js';"],
  ['diff/', 'diff/planted.ts', "import { catalogue } from '../contract/judge/catalogue.js';"],
  ['proxy/ (the run)', 'proxy/planted.ts', "import { runContract } from '../contract/run/run.js';"],
  ['proxy/ (diff)', 'proxy/planted.ts', "import { diffDocuments } from '../diff/changes.js';"],
  ['a package entry', 'contract/index.ts', "import { main } from '../cli/main.js';"],
];

describe('the layers', () => {
  it.each(plantedBreaks)('refuse a planted break of %s', async (_, path, code) => {
    expect(await layerErrors(path, `${code}\n\nexport const planted = 1;\n`)).toHaveLength(1);
  });

  it('let the same files import what their layer may', async () => {
    expect(await layerErrors('mock/node/planted.ts', "import { pathFor } from '../../api/match.js';\n")).toEqual([]);
    expect(await layerErrors('contract/index.ts', "import { startContractProxy } from '../proxy/index.js';\n")).toEqual(
      [],
    );
  });
});
