import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** Files a strict consumer writes, each line a claim: the two planted mistakes must be the only errors. */
const planted = {
  'app.ts': `
import createClient from 'openapi-fetch';
import { build } from 'evalkit/factories';
import type { paths } from 'evalkit/openapi';
import type { AggregatedResult } from 'evalkit/types';
import { isDocumentedEvaluatorConfig } from 'evalkit/validators';
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
  'nope.ts': `import { build } from 'evalkit/factories';
export const nope = build('Nope');
`,
  'commonjs.cts': `import { build } from 'evalkit/factories';
import type { HumanEvaluation } from 'evalkit/types';
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
export const moduleSettings: Array<Record<string, string | boolean>> = [
  { module: 'node16', moduleResolution: 'node16', outDir: 'out' },
  { module: 'esnext', moduleResolution: 'bundler', noEmit: true },
  { module: 'commonjs', moduleResolution: 'node10', noEmit: true },
];

/**
 * The CommonJS file alone under node16 with the libraries' declarations checked, as TypeScript does by default: a
 * CommonJS file reading an ES module's declarations is TS1479 there. Alone, so only evalkit's are checked (with the
 * snippet's test libraries it took 5 s more).
 */
export const commonJsLibCheck = {
  setting: { module: 'node16', moduleResolution: 'node16', noEmit: true, skipLibCheck: false },
  file: 'commonjs.cts',
};

/** Writes the planted files into `dir`, a project with evalkit, typescript and openapi-fetch installed. */
export function plantStrictConsumer(dir: string): void {
  for (const [file, source] of Object.entries(planted)) writeFileSync(join(dir, file), source);
}

/** How a setting is named in a message: its module and resolution. */
export const settingName = (setting: Record<string, string | boolean>) =>
  `--module ${String(setting.module)} --moduleResolution ${String(setting.moduleResolution)}`;

/**
 * The project's tsc over the planted files (and `more` of its files, under the first setting) under each setting: its
 * errors for each, sorted. One `tsc --build` of a tsconfig per setting: one process, TypeScript's libraries read once.
 */
export async function strictErrors(
  dir: string,
  settings: typeof moduleSettings,
  more: string[],
  only?: { setting: Record<string, string | boolean>; file: string },
): Promise<string[][]> {
  const all = only ? [...settings, only.setting] : settings;
  const configs = all.map((setting, index) => {
    const file = `tsconfig.strict-${index}.json`;
    const files = setting === only?.setting ? [only.file] : [...Object.keys(planted), ...(index === 0 ? more : [])];
    const compilerOptions = { strict: true, skipLibCheck: true, target: 'es2022', ...setting };
    writeFileSync(join(dir, file), JSON.stringify({ compilerOptions, files }));
    return file;
  });
  const args = ['node_modules/typescript/bin/tsc', '--build', '--verbose', '--pretty', 'false', ...configs];
  const output = await promisify(execFile)(process.execPath, args, { cwd: dir }).then(
    ({ stdout }) => stdout,
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  // --verbose says which project it builds before that project's errors.
  const errors: string[][] = configs.map(() => []);
  let current = -1;
  for (const line of output.split('\n')) {
    const building = /Building project '.*tsconfig\.strict-(\d+)\.json'/.exec(line);
    if (building) current = Number(building[1]);
    else if (/: error TS\d+/.test(line) && current >= 0) errors[current]?.push(line.trim());
  }
  return errors.map((list) => list.sort());
}
