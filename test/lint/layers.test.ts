import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/cli.js';

/**
 * The layer rules of eslint.config.js, proved to bite: each planted import is one a layer may not make. The whole
 * lint (`npm run lint`: eslint, prettier, knip) runs in CI apart from the tests; this keeps the layers in the suite.
 */
const eslint = new ESLint({ cwd: projectRoot });

/** The layer rule's messages for `code` as if it were the file at `path` in the tree. */
async function layerErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(projectRoot, path) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

describe('the layers', () => {
  it.each([
    [
      'a mock file importing contract/',
      'mock/node/planted.ts',
      "import { runContract } from '../../contract/index.js';",
    ],
    ['a mock core file importing a node: module', 'mock/core/planted.ts', "import { readFile } from 'node:fs';"],
    ['a schemas file importing cli/', 'schemas/planted.ts', "import { main } from '../cli/main.js';"],
  ])('refuse %s', async (_, path, code) => {
    expect(await layerErrors(path, `${code}\n\nexport const planted = 1;\n`)).toHaveLength(1);
  });

  it('let the same files import what their layer may', async () => {
    expect(await layerErrors('mock/node/planted.ts', "import { pathFor } from '../../api/match.js';\n")).toEqual([]);
  });

  it('hold in the tree as it is', async () => {
    const folders = ['schemas', 'api', 'http', 'generators', 'mock', 'contract', 'proxy', 'cli'];
    const results = await eslint.lintFiles(folders);
    const broken = results.flatMap((result) =>
      result.messages
        .filter((message) => message.ruleId === 'no-restricted-imports')
        .map((message) => `${result.filePath.slice(projectRoot.length)}:${message.line} ${message.message}`),
    );
    expect(broken).toEqual([]);
  }, 120_000);
});
