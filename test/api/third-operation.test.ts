import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/cli.js';

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

/** The decisions a new operation owes: each a map keyed by the operation, so the compiler names it. */
const owed = [
  // The judge: the spec's line for a successful answer of each operation.
  'contract/judge/checks/response.ts TS1360',
  'contract/judge/checks/response.ts TS2536',
  // The mock: how it answers each operation, and each operation's canned error bodies.
  'mock/core/handle.ts TS2741',
  'mock/core/scenario-answers.ts TS2741',
];

/** The shipped sources (tsconfig.build.json), compiled with api/operations.ts holding one more operation. */
function compileWithThirdOperation(): string[] {
  const configPath = join(projectRoot, 'tsconfig.build.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    { noEmit: true, incremental: false },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.build.json could not be read');
  const operationsFile = join(projectRoot, 'api/operations.ts');
  const source = readFileSync(operationsFile, 'utf8');
  expect(source).toContain(tableEnd);
  const patched = source.replace(tableEnd, `${thirdOperation}${tableEnd}`);
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => (file === operationsFile ? patched : readFile(file));
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host });
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (diagnostic) =>
        `${diagnostic.file ? diagnostic.file.fileName.slice(projectRoot.length) : '(config)'} TS${diagnostic.code}`,
    );
}

describe('a third operation is one entry in api/operations.ts', () => {
  it('compiles but for the decisions it owes, each named where it is owed', () => {
    expect(compileWithThirdOperation().sort()).toEqual([...owed].sort());
  }, 180_000);
});
