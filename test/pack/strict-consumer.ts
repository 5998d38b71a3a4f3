import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** Files a strict consumer writes, each line a claim: the two planted mistakes must be the only errors. */
const planted = {
  'app.ts': `
import createClient from 'openapi-fetch';
import { build, isDocumentedEvaluatorConfig, type AggregatedResult, type paths } from 'evalkit';
export const configName = ({ evaluator_config: config }: AggregatedResult): string =>
  isDocumentedEvaluatorConfig(config) ? config.name : 'undocumented';
const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010' });
export async function variantNames(id: string): Promise<string[] | undefined> {
  const { data } = await client.GET('/human-evaluations/{evaluation_id}', { params: { path: { evaluation_id: id } } });
  // @ts-expect-error: the path parameter is required
  await client.GET('/human-evaluations/{evaluation_id}', {});
  return data?.variant_names;
}
export const failed: string = build('Evaluation', { state: 'failed', overrides: { app_id: 'app' } }).status.type;
`,
  'typo.ts': `import { build } from 'evalkit/factories';
export const typo = build('Evaluation', { overrides: { testset_nmae: 'x' } });
`,
  'nope.ts': `import { build } from 'evalkit';
export const nope = build('Nope');
`,
  'commonjs.cts': `import { build } from 'evalkit/factories';
import type { HumanEvaluation } from 'evalkit';
const human: HumanEvaluation = build('HumanEvaluation', { state: 'failed' });
console.log(human.status);
`,
};

/** The errors the planted mistakes must give, and no other: an override typo, an unknown resource. */
export const expectedErrors = [
  /^nope\.ts\(2,\d+\): error TS2345: Argument of type '"Nope"' is not assignable/,
  /^typo\.ts\(2,\d+\): error TS2561: .*'testset_nmae'.*Did you mean to write 'testset_name'\?$/,
];

/** The settings a consumer may have; node16 also emits (errors do not stop tsc from writing), for the .cts to run. */
export const moduleSettings = [
  ['--module', 'node16', '--moduleResolution', 'node16', '--outDir', 'out'],
  ['--module', 'esnext', '--moduleResolution', 'bundler', '--noEmit'],
  ['--module', 'commonjs', '--moduleResolution', 'node10', '--noEmit'],
];

/** Writes the planted files into `dir`, a project with evalkit, typescript and openapi-fetch installed. */
export function plantStrictConsumer(dir: string): void {
  for (const [file, source] of Object.entries(planted)) writeFileSync(join(dir, file), source);
}

/** The project's tsc over the planted files (and `more` of its files) under one setting: its errors, sorted. */
export async function strictErrors(dir: string, setting: string[], more: string[] = []): Promise<string[]> {
  const args = [
    'node_modules/typescript/bin/tsc',
    '--strict',
    '--skipLibCheck',
    '--target',
    'es2022',
    ...setting,
    ...Object.keys(planted),
    ...more,
  ];
  try {
    await promisify(execFile)(process.execPath, args, { cwd: dir });
    return [];
  } catch (error) {
    return (error as { stdout: string }).stdout.trim().split('\n').sort();
  }
}
