import { execFile } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
    success: 'Successful response: one Evaluation.',
    recordFolder: 'evaluations',
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
  // The mock: how it answers the operation, and its canned error bodies, in one object.
  'mock/core/operations.ts TS2741',
  // The run: the operation's part of it (what it sends first), its deployment-record flag, and which of the
  // deployment's records its replayed requests take.
  'contract/run/operations.ts TS2741',
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

/**
 * Each decision the third operation owes, as its author would write it: `[file, anchor, text]`, the text going in
 * right after the anchor (each anchor once in its file). With them the copy compiles, and runs.
 */
const decisions: Array<[file: string, anchor: string, text: string]> = [
  [
    'mock/core/operations.ts',
    'export const mockOperations: { readonly [K in OperationId]: MockOperation } = {',
    `
  fetchEvaluation: {
    scenarioAnswers: { ...commonAnswers, 404: new HttpProblem(404, 'Evaluation not found'),
      422: new HttpProblem(422, []), 500: new HttpProblem(500, 'An error occurred while fetching the evaluation') },
    handler: () => () => { throw new HttpProblem(404, 'Evaluation not found'); },
  },`,
  ],
  ['contract/judge/catalogue.ts', 'const checksByOperation = {', "\n  fetchEvaluation: responseChecks('fetchOne'),"],
  [
    'contract/judge/catalogue.ts',
    "import { fetchChecks } from './checks/fetch.js';",
    "\nimport { responseChecks } from './checks/response.js';",
  ],
  [
    'contract/run/operations.ts',
    'export const runOperations: { readonly [K in OperationId]: RunOperation } = {',
    "\n  fetchEvaluation: { recordFlag: '--evaluation-id', substitute: heldIdInPath, reach: async () => [] },",
  ],
];

/** The shipped sources, copied with api/operations.ts holding one more operation (and `more` decisions made). */
function copyWithThirdOperation(more: typeof decisions = []): string {
  const copy = tempDir('evalkit-third-operation-');
  for (const entry of [...shipped, ...settings])
    cpSync(join(projectRoot, entry), join(copy, entry), { recursive: true });
  symlinkSync(join(projectRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const edit = (file: string, change: (source: string) => string) =>
    writeFileSync(join(copy, file), change(readFileSync(join(copy, file), 'utf8')));
  edit('api/operations.ts', (source) => {
    expect(source).toContain(tableEnd);
    return source.replace(tableEnd, `${thirdOperation}${tableEnd}`);
  });
  for (const [file, anchor, text] of more)
    edit(file, (source) => {
      expect(source.split(anchor), `${file}: ${anchor}`).toHaveLength(2);
      return source.replace(anchor, `${anchor}${text}`);
    });
  // Every era's date form of the new operation's answers.
  if (more.length > 0)
    edit('generators/vocabulary.ts', (source) =>
      source.replace(/dateForms: \{ ([^}]*) \}/g, "dateForms: { $1, fetchEvaluation: 'offset' }"),
    );
  return copy;
}

/** The copy type-checked: `file TScode` for each error. */
async function compileErrors(copy: string): Promise<string[]> {
  const args = ['--noEmit', '--incremental', 'false', '--pretty', 'false', '-p', 'tsconfig.build.json'];
  const output = await promisify(execFile)(tsgoBin, args, { cwd: copy }).then(
    ({ stdout }) => stdout,
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  return [...output.matchAll(/^(\S+?)\(\d+,\d+\): error (TS\d+)/gm)].map((match) => `${match[1]} ${match[2]}`);
}

/** A deployment of the third operation alone: GET /evaluations/{id} answers a valid Evaluation of that id. */
async function thirdOperationDeployment(copy: string): Promise<{ url: string; close(): Promise<void> }> {
  const { generators } = (await import(
    join(copy, 'generators/index.ts')
  )) as typeof import('../../generators/index.js');
  const server = createServer((req, res) => {
    const id = /^\/evaluations\/([^/?]+)$/.exec(req.url ?? '')?.[1];
    if (req.method !== 'GET' || id === undefined) return res.writeHead(404).end();
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ ...generators.Evaluation(id), id }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('a third operation is one entry in api/operations.ts', () => {
  it('compiles but for the decisions it owes, each named where it is owed', async () => {
    expect((await compileErrors(copyWithThirdOperation())).sort()).toEqual([...owed].sort());
  });

  it('with its decisions made, passes through the proxy (judged, counted, recorded) and is replayed', async () => {
    const copy = copyWithThirdOperation(decisions);
    expect(await compileErrors(copy)).toEqual([]);
    const deployment = await thirdOperationDeployment(copy);
    const { startContractProxy, runContract } = (await import(
      join(copy, 'contract/index.ts')
    )) as typeof import('../../contract/index.js');
    const { readTraffic } = (await import(join(copy, 'http/traffic.ts'))) as typeof import('../../http/traffic.js');
    const recorded = tempDir('evalkit-third-operation-record-');
    try {
      const proxy = await startContractProxy({ target: deployment.url, port: 0, recordDir: recorded });
      expect((await fetch(`${proxy.url}/evaluations/ev-1`)).status).toBe(200);
      await proxy.close();
      const passed = proxy.report().checks.filter((check) => check.operation === 'GET /evaluations/{evaluation_id}');
      expect(passed.find((check) => String(check.id) === 'fetchOne.body.schema')?.outcome).toBe('passed');
      expect(proxy.traffic()).toMatchObject({ forwarded: 1, checked: 1, recorded: 1 });
      expect(JSON.parse(readFileSync(join(recorded, 'evaluations', 'ev-1.json'), 'utf8'))).toMatchObject({
        id: 'ev-1',
      });

      const replayed = await runContract({
        baseUrl: deployment.url,
        replay: { source: recorded, traffic: await readTraffic(recorded) },
      });
      expect(replayed.replay).toMatchObject({ replayed: 1, refused: [], skipped: [] });
      expect(replayed.checks.find((check) => String(check.id) === 'fetchOne.body.schema')?.outcome).toBe('passed');
    } finally {
      await deployment.close();
    }
  });
});
