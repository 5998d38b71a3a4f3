import { execFile } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/cli.js';
import { toolPath, tsgo } from '../helpers/node-tools.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';

/**
 * A third operation, `GET /evaluations/{evaluation_id}` answering one Evaluation, added to api/operations.ts as one
 * entry and nothing else. Everything that reads the table (routing, matching, the judge's records, the proxy's
 * roles and counts, replay, coverage, the OpenAPI document) takes it as it is; a layer that owes a decision per
 * operation is a compile error exactly there, and nowhere else.
 */
const thirdOperation = `
  fetchEvaluation: {
    key: 'fetchOne',
    method: 'GET',
    path: '/evaluations/{evaluation_id}',
    summary: 'Fetch Evaluation',
    description: 'Fetches one evaluation.',
    parameter: { name: 'evaluation_id', description: 'The identifier of the evaluation.' },
    response: { resource: 'Evaluation', array: false, sections: '§2.2-2.4' },
    spec: '§4.3',
    methods: ['GET', 'HEAD'],
  },
`;
const tableEnd = '} as const satisfies Record<string, OperationDefinition>;';

/**
 * The decisions a new operation owes: each a map keyed by the operation, so the compiler names it. The codes are
 * tsgo's (TypeScript 7's compiler, which names the missing key, TS2741, where tsc 5 names the unmet `satisfies`).
 */
const owed = [
  // The judge: each operation's checks (the table, and the map the catalogue reads it through).
  'contract/judge/catalogue.ts TS2741',
  'contract/judge/catalogue.ts TS2741',
  // The judge: the spec's line for a successful answer of each operation.
  'contract/judge/checks/response.ts TS2741',
  'contract/judge/checks/response.ts TS2536',
  // The mock: how it answers each operation, and each operation's canned error bodies.
  'mock/core/handle.ts TS2741',
  'mock/core/scenario-answers.ts TS2741',
  // Replay: which of the deployment's ids (--human-evaluation-id, --create-body) the operation takes.
  'contract/run/replay.ts TS2741',
  // Each era of the service: the date form its answers to that operation take.
  'generators/vocabulary.ts TS2741',
  'generators/vocabulary.ts TS2741',
  'generators/vocabulary.ts TS2741',
];

/** What tsconfig.build.json compiles (the shipped sources), and the files that say how. */
const shipped = ['index.ts', 'schemas', 'api', 'http', 'generators', 'mock', 'contract', 'diff', 'proxy', 'cli'];
const settings = ['package.json', 'tsconfig.json', 'tsconfig.build.json'];

/** TypeScript 7's native compiler: it checks the shipped sources in under a second where tsc 5 takes several. */
const tsgoBin = toolPath(tsgo);

afterAll(removeTempDirs);

/** The shipped sources, copied with api/operations.ts holding one more operation, type-checked: `file TScode` each. */
async function compileWithThirdOperation(): Promise<string[]> {
  const copy = tempDir('evalkit-third-operation-');
  for (const entry of [...shipped, ...settings])
    cpSync(join(projectRoot, entry), join(copy, entry), { recursive: true });
  symlinkSync(join(projectRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const operationsFile = join(copy, 'api/operations.ts');
  const source = readFileSync(operationsFile, 'utf8');
  expect(source).toContain(tableEnd);
  writeFileSync(operationsFile, source.replace(tableEnd, `${thirdOperation}${tableEnd}`));
  const args = ['--noEmit', '--incremental', 'false', '--pretty', 'false', '-p', 'tsconfig.build.json'];
  const output = await promisify(execFile)(tsgoBin, args, { cwd: copy }).then(
    ({ stdout }) => stdout,
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  return [...output.matchAll(/^(\S+?)\(\d+,\d+\): error (TS\d+)/gm)].map((match) => `${match[1]} ${match[2]}`);
}

describe('a third operation is one entry in api/operations.ts', () => {
  it('compiles but for the decisions it owes, each named where it is owed', async () => {
    expect((await compileWithThirdOperation()).sort()).toEqual([...owed].sort());
  });
});
