import { readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as bundle } from 'esbuild';
import type { ZodType } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument, openApiJson } from '../../api/openapi.js';
import { build } from '../../generators/factories.js';
import { createMockCore, handleFetch } from '../../mock/index.js';
import { schemaNames, type ResourceName } from '../../schemas/index.js';
import { formatIssue, isDocumentedEvaluatorConfig, validate } from '../../schemas/validators/index.js';
import { projectRoot, type CliRun } from '../helpers/cli.js';
import { runTool, runToolScript, tsgo } from '../helpers/node-tools.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import type { Operation } from '../helpers/openapi-shapes.js';

/*
 * The generators frontend teams use, run on `evalkit openapi` as they would run them: Kubb 4 (types, faker, zod, msw)
 * with its defaults, and openapi-typescript. Their code must compile under strict settings (with tsgo), their data
 * must validate, their validators must accept the mock's answers, and openapi-typescript's types must be evalkit's own
 * `paths`.
 */

let dir = '';
let compiled: Promise<CliRun>;
const examples = examplesSource();

/** Compares two types by assignability both ways: the same shape. */
const pathsCheck = `
import type * as generated from './openapi-typescript.js';
import type * as evalkit from ${JSON.stringify(join(projectRoot, 'dist', 'api', 'openapi.js'))};
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Schemas = generated.components['schemas'];
export const paths: Same<evalkit.paths, generated.paths> = true;
export const operations: Same<evalkit.operations, generated.operations> = true;
export const schemas: { [K in keyof Schemas]: Same<evalkit.components['schemas'][K], Schemas[K]> } = {
${schemaNames.map((name) => `  ${name}: true,`).join('\n')}
};
`;

/** Every example the document holds, with the type openapi-typescript gives the place it stands in. */
function examplesWithTypes(document: OpenApiDocument): Array<{ type: string; example: unknown }> {
  const found: Array<{ type: string; example: unknown }> = [];
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    for (const example of (schema.examples as unknown[] | undefined) ?? [])
      found.push({ type: `components['schemas']['${name}']`, example });
  }
  for (const methods of Object.values(document.paths as Record<string, Record<string, Operation>>)) {
    for (const operation of Object.values(methods)) {
      const at = `operations['${operation.operationId}']`;
      for (const [media, { example }] of Object.entries(operation.requestBody?.content ?? {})) {
        found.push({ type: `${at}['requestBody']['content']['${media}']`, example });
      }
      for (const [code, response] of Object.entries(operation.responses)) {
        for (const [media, { example }] of Object.entries(response.content ?? {})) {
          found.push({ type: `${at}['responses']['${code}']['content']['${media}']`, example });
        }
      }
    }
  }
  return found.filter(({ example }) => example !== undefined);
}

/** The document's examples, each typed as openapi-typescript types the place it stands in: the compile checks them. */
function examplesSource(): { source: string; count: number } {
  const examples = examplesWithTypes(openApiDocument() as OpenApiDocument);
  const source = [
    "import type { components, operations } from './openapi-typescript.js';",
    ...examples.map(
      ({ type, example }, index) => `export const example${index}: ${type} = ${JSON.stringify(example)};`,
    ),
  ].join('\n');
  return { source: `${source}\n`, count: examples.length };
}

type OpenApiDocument = ReturnType<typeof openApiDocument> & {
  components: { schemas: Record<string, Record<string, unknown>> };
};

/** A consumer's strict settings; Kubb writes `.ts` extensions in its imports, as bundler-based projects take them. */
const tsconfig = {
  compilerOptions: {
    strict: true,
    exactOptionalPropertyTypes: true,
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    noEmit: true,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    types: [],
  },
  include: ['gen/**/*.ts', 'openapi-typescript.d.ts', 'paths-check.ts', 'examples.ts'],
};

beforeAll(async () => {
  dir = tempDir('evalkit-generators-');
  // The generated code imports @faker-js/faker, zod and msw as a consumer's would: from its node_modules.
  await symlink(join(projectRoot, 'node_modules'), join(dir, 'node_modules'));
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
  await writeFile(join(dir, 'openapi.json'), openApiJson());
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  await writeFile(join(dir, 'paths-check.ts'), pathsCheck);
  const [generated, typescript] = await Promise.all([
    runToolScript(fileURLToPath(new URL('./kubb-build.mjs', import.meta.url)), [dir]),
    runTool('openapi-typescript/bin/cli.js', [join(dir, 'openapi.json'), '-o', join(dir, 'openapi-typescript.d.ts')]),
  ]);
  expect(generated.code, generated.stderr).toBe(0);
  expect(typescript.code, typescript.stderr).toBe(0);
  await writeFile(join(dir, 'examples.ts'), examples.source);
  compiled = runTool(tsgo, ['-p', dir]);
}, 90_000);

afterAll(removeTempDirs);

/**
 * One folder of the generated code, bundled to one module with the faker instance it uses (to seed it), and imported,
 * as an app's bundler would.
 */
async function load(folder: string): Promise<Record<string, unknown>> {
  const entry = join(dir, `${folder}.ts`);
  await writeFile(entry, `export * from './gen/${folder}/index.ts';\nexport { faker } from '@faker-js/faker';\n`);
  const outfile = join(dir, 'out', `${folder}.mjs`);
  await bundle({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile,
    logLevel: 'error',
  });
  return (await import(outfile)) as Record<string, unknown>;
}

describe('Kubb 4 and openapi-typescript on the OpenAPI document', () => {
  it("compiles Kubb's types, client, faker, zod, msw, their barrel, and openapi-typescript's, strictly", async () => {
    const run = await compiled;
    expect(run.stdout + run.stderr).toBe('');
    expect(run.code).toBe(0);
  }, 90_000);

  it("has openapi-typescript's paths, operations and components shaped as evalkit's (one compile)", async () => {
    // paths-check.ts holds `const x: Same<evalkit, generated> = true` per type; a difference fails the run above.
    expect((await compiled).stdout).not.toMatch(/paths-check\.ts/);
  }, 90_000);

  it("holds examples that compile against openapi-typescript's types (the same compile)", async () => {
    // A field typed as an empty object (settings_values once was) rejects every value it really holds.
    expect(await readFile(join(dir, 'openapi-typescript.d.ts'), 'utf8')).not.toMatch(
      /^\s+\w+\??: Record<string, never>;$/m,
    );
    expect(examples.count).toBeGreaterThan(schemaNames.length);
    expect((await compiled).stdout).not.toMatch(/examples\.ts/);
  }, 90_000);

  it("has Kubb's faker make 100/100 valid Evaluations, HumanEvaluations and create requests", async () => {
    const mocks = await load('mocks');
    const factories: Array<[ResourceName, string]> = [
      ['Evaluation', 'createEvaluation'],
      ['HumanEvaluation', 'createHumanEvaluation'],
      ['CreateEvaluationRequest', 'createCreateEvaluationRequest'],
    ];
    (mocks.faker as { seed: (seed: number) => void }).seed(7);
    const undocumented = new Set<string>();
    for (const [name, factory] of factories) {
      const make = mocks[factory] as () => unknown;
      const problems: string[] = [];
      const made = new Set<string>();
      for (let index = 0; index < 100; index++) {
        // What a server or an MSW handler would send: the JSON text of it.
        const sent = JSON.stringify(make());
        made.add(sent);
        const instance = JSON.parse(sent) as { aggregated_results?: Array<{ evaluator_config: unknown }> };
        const { valid, issues } = validate(name, instance);
        if (!valid) problems.push(issues.map(formatIssue).join('; '));
        for (const { evaluator_config: config } of instance.aggregated_results ?? [])
          if (!isDocumentedEvaluatorConfig(config)) undocumented.add(JSON.stringify(config));
      }
      expect(problems, name).toEqual([]);
      expect(made.size, name).toBe(100);
    }
    // The undocumented alternative is drawn from too, in more than one form.
    expect(undocumented.size).toBeGreaterThan(1);
  }, 120_000);

  it("has Kubb's zod accept 200/200 of the mock's answers, fetched and created, in every state", async () => {
    const zod = await load('zod');
    const parse = (schema: string, body: unknown) => (zod[schema] as ZodType).safeParse(body).success;
    const core = createMockCore({});
    const states = ['initialized', 'started', 'finished', 'finished_with_errors', 'failed', 'aggregation_failed'];
    let accepted = 0;
    for (let index = 0; index < 100; index++) {
      const fetched = await handleFetch(core, new Request(`http://mock.test/human-evaluations/he-${index}`));
      if (parse('fetchHumanEvaluation200Schema', await fetched.json())) accepted++;
      const created = await handleFetch(
        core,
        new Request('http://mock.test/evaluations', {
          method: 'POST',
          headers: { 'content-type': 'application/json', prefer: `state=${states[index % states.length]}` },
          // With a provider key: an AI critique config without one is refused before any run, as the service does.
          body: JSON.stringify({
            ...build('CreateEvaluationRequest', { seed: index }),
            lm_providers_keys: { OPENAI_API_KEY: 'sk-fake-key' },
          }),
        }),
      );
      if (parse('createEvaluations200Schema', await created.json())) accepted++;
    }
    expect(accepted).toBe(200);
  }, 120_000);
});
