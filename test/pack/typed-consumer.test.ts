import { execFile, execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/cli.js';
import { installConsumer, installedVersion, packOnce, thisNode } from './consumer-project.js';
import { removeTempDirs } from '../helpers/temp-dirs.js';
import { startChild } from '../mock/processes.js';

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
const expectedErrors = [
  /^nope\.ts\(2,\d+\): error TS2345: Argument of type '"Nope"' is not assignable/,
  /^typo\.ts\(2,\d+\): error TS2561: .*'testset_nmae'.*Did you mean to write 'testset_name'\?$/,
];

let project = '';
afterAll(removeTempDirs);

/**
 * The packed tarball installed into an empty strict project with TypeScript and openapi-fetch (from npm's cache when
 * it can), type-checked under each module setting a consumer may have, a CommonJS file among them.
 */
describe('a strict TypeScript consumer of the packed tarball', () => {
  it('fails to compile the planted mistakes, nothing else, under node16, bundler and commonjs; .cts runs', async () => {
    const consumer = await installConsumer(thisNode, [
      packOnce().tarball,
      `typescript@${installedVersion(projectRoot, 'typescript')}`,
      `openapi-fetch@${installedVersion(projectRoot, 'openapi-fetch')}`,
    ]);
    project = consumer.dir;
    for (const [file, source] of Object.entries(planted)) writeFileSync(join(project, file), source);

    const tsc = async (options: string[]) => {
      const args = [
        'node_modules/typescript/bin/tsc',
        '--strict',
        '--skipLibCheck',
        '--target',
        'es2022',
        ...options,
        ...Object.keys(planted),
      ];
      try {
        await promisify(execFile)(process.execPath, args, { cwd: project });
        return [];
      } catch (error) {
        return (error as { stdout: string }).stdout.trim().split('\n').sort();
      }
    };
    // node16 also emits (errors do not stop tsc from writing), for the CommonJS file to run below.
    const settings = [
      ['--module', 'node16', '--moduleResolution', 'node16', '--outDir', 'out'],
      ['--module', 'esnext', '--moduleResolution', 'bundler', '--noEmit'],
      ['--module', 'commonjs', '--moduleResolution', 'node10', '--noEmit'],
    ];
    // The three at once: each waits on its own tsc process.
    const results = await Promise.all(settings.map(tsc));
    for (const [index, setting] of settings.entries()) {
      const errors = results[index] as string[];
      expect(errors, setting.join(' ')).toHaveLength(expectedErrors.length);
      expectedErrors.forEach((pattern, index) => expect(errors[index], setting.join(' ')).toMatch(pattern));
    }

    // The CommonJS file, emitted as require() calls, runs: Node 20.19+ requires the ES module.
    expect(readFileSync(join(project, 'out', 'commonjs.cjs'), 'utf8')).toMatch(/require\("evalkit\/factories"\)/);
    expect(execFileSync(process.execPath, ['out/commonjs.cjs'], { cwd: project, encoding: 'utf8' })).toBe(
      'EVALUATION_FAILED\n',
    );
  }, 180_000);

  it('serves the committed fixtures from node_modules/evalkit/fixtures/mock, every id, --strict-ids', async () => {
    const fixtures = join('node_modules', 'evalkit', 'fixtures', 'mock');
    const ids = readdirSync(join(project, fixtures, 'human-evaluations')).map((file) => file.slice(0, -'.json'.length));
    expect(ids.length).toBeGreaterThan(0);
    const mock = startChild(
      process.execPath,
      ['node_modules/evalkit/bin/evalkit.js', 'mock', '--port', '0', '--fixtures', fixtures, '--strict-ids'],
      project,
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
