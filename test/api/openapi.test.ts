import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { generators } from '../../generators/index.js';
import { openApiDocument, renderOpenApi } from '../../api/openapi.js';
import { schemaFor, schemaNames } from '../../schemas/index.js';
import { formatIssue, validate } from '../../schemas/validators/index.js';
import { projectRoot, runCli } from '../helpers/cli.js';
import { runTool } from '../helpers/node-tools.js';
import { startPrism, writeOpenApiFile, type PrismProcess } from '../helpers/prism.js';
import { removeTempDirs } from '../helpers/temp-dirs.js';

afterAll(removeTempDirs);

type Document = ReturnType<typeof openApiDocument> & {
  components: { schemas: Record<string, Record<string, unknown>> };
};

interface MediaType {
  schema?: unknown;
  example?: unknown;
}
type Operation = {
  operationId: string;
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
};

/** Every example the document holds, with the type openapi-typescript gives the place it stands in. */
function examplesWithTypes(document: Document): Array<{ type: string; example: unknown }> {
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

describe('the OpenAPI document', () => {
  const document = openApiDocument() as Document;

  it('is OpenAPI 3.1 with both operations of the spec and no others', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths as object)).toEqual(['/human-evaluations/{evaluation_id}', '/evaluations']);
  });

  it('takes its components from the schemas, only the $refs rewritten (and the undocumented config drawable)', () => {
    expect(Object.keys(document.components.schemas)).toEqual(schemaNames);
    for (const name of schemaNames.filter((schema) => schema !== 'UndocumentedEvaluatorConfig')) {
      const component = JSON.stringify(document.components.schemas[name]);
      const { $id: _id, $schema: _schema, ...source } = schemaFor(name);
      expect(
        component.replace(/"#\/components\/schemas\/(\w+)"/g, (_, ref: string) =>
          JSON.stringify((schemaFor(ref as never).$id as string).split('/').pop()),
        ),
      ).toBe(JSON.stringify(source));
    }
  });

  it('spells the undocumented evaluator config as any JSON value: generators draw from it, validators agree', () => {
    const undocumented = document.components.schemas.UndocumentedEvaluatorConfig!;
    expect(undocumented).not.toHaveProperty('not');
    expect((undocumented.anyOf as Array<{ type: string }>).map(({ type }) => type)).toEqual([
      'object',
      'array',
      'string',
      'number',
      'boolean',
      'null',
    ]);
    // No jsonSchemaDialect: 3.1's default dialect is 2020-12 already, and Optic's default mode refuses the field.
    expect(document).not.toHaveProperty('jsonSchemaDialect');
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ $id: 'https://evalkit.dev/openapi.json', components: document.components });
    const aggregated = ajv.getSchema('https://evalkit.dev/openapi.json#/components/schemas/AggregatedResult')!;
    const result = { type: 'number', value: 0.5 };
    const configs = [
      (schemaFor('EvaluatorConfig').examples as unknown[])[0],
      {},
      { id: 'x', deleted: true },
      { name: 1 },
    ];
    for (const config of [...configs, [1, 'a'], [], 'config', 3.5, 0, true, false, null]) {
      const instance = { evaluator_config: config, result };
      expect(validate('AggregatedResult', instance).valid, JSON.stringify(config)).toBe(true);
      expect(aggregated(instance), JSON.stringify(config)).toBe(true);
    }
    expect(aggregated({ evaluator_config: {}, result: {} })).toBe(false);
  });

  it('is printed by `evalkit openapi` as JSON and as YAML, the same document', async () => {
    const [json, yaml] = await Promise.all([runCli(['openapi']), runCli(['openapi', '--format', 'yaml'])]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(document);
    expect(parse(yaml.stdout)).toEqual(document);
    expect(renderOpenApi('json')).toBe(json.stdout);
  });

  it('lints clean with spectral:oas (no error, warning, info or hint)', async () => {
    const file = await writeOpenApiFile('yaml');
    const findings = `${file}.lint.json`;
    const run = await runTool('@stoplight/spectral-cli/dist/index.js', [
      'lint',
      file,
      '--ruleset',
      join(projectRoot, '.spectral.yaml'),
      '--fail-severity',
      'hint',
      '-f',
      'json',
      '-o',
      findings,
    ]);
    expect(JSON.parse(await readFile(findings, 'utf8'))).toEqual([]);
    expect(run.code).toBe(0);
  }, 90_000);

  it("lints clean with Redocly's recommended rules (no error or warning)", async () => {
    const run = await runTool('@redocly/cli/bin/cli.js', [
      'lint',
      await writeOpenApiFile('yaml'),
      '--extends',
      'recommended',
      '--format',
      'json',
    ]);
    expect(JSON.parse(run.stdout.slice(run.stdout.indexOf('{')))).toMatchObject({
      totals: { errors: 0, warnings: 0 },
      problems: [],
    });
    expect(run.code).toBe(0);
  }, 90_000);

  it('declares the FastAPI error bodies: 422 with its problem list, any other error {"detail": ...}', () => {
    const operations = Object.values(document.paths as Record<string, Record<string, Operation>>).flatMap((methods) =>
      Object.entries(methods),
    );
    expect(operations).toHaveLength(2);
    for (const [method, operation] of operations) {
      const unprocessable = operation.responses['422']?.content?.['application/json'];
      expect(unprocessable?.schema).toEqual({ $ref: '#/components/schemas/HTTPValidationError' });
      // The example's problem lies where the operation takes its input: a GET's in its path, a POST's in its body.
      expect((unprocessable?.example as { detail: Array<{ loc: string[] }> }).detail[0]!.loc[0]).toBe(
        method === 'get' ? 'path' : 'body',
      );
      expect(operation.responses.default?.content?.['application/json']?.schema).toEqual({
        $ref: '#/components/schemas/HTTPError',
      });
    }
  });

  it('declares an API key in Authorization as optional: the hosted service takes one, the open-source one none', () => {
    expect(document.security).toEqual([{}, { apiKey: [] }]);
    expect((document.components as { securitySchemes?: unknown }).securitySchemes).toEqual({
      apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'Authorization' }),
    });
  });

  it('holds examples that compile against the types openapi-typescript generates from it', async () => {
    const file = await writeOpenApiFile('yaml');
    const types = join(dirname(file), 'schema.d.ts');
    const generated = await runTool('openapi-typescript/bin/cli.js', [file, '-o', types]);
    expect(generated.code, generated.stderr).toBe(0);
    // A field typed as an empty object (settings_values once was) rejects every value it really holds.
    expect(await readFile(types, 'utf8')).not.toMatch(/^\s+\w+\??: Record<string, never>;$/m);
    const examples = examplesWithTypes(document);
    expect(examples.length).toBeGreaterThan(schemaNames.length);
    const source = [
      "import type { components, operations } from './schema.js';",
      ...examples.map(
        ({ type, example }, index) => `export const example${index}: ${type} = ${JSON.stringify(example)};`,
      ),
    ].join('\n');
    const checked = join(dirname(file), 'examples.ts');
    await writeFile(checked, `${source}\n`);
    const compiled = await runTool('typescript/bin/tsc', [
      '--noEmit',
      '--strict',
      '--exactOptionalPropertyTypes',
      '--skipLibCheck',
      '--target',
      'es2022',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      checked,
    ]);
    expect(compiled.stdout + compiled.stderr).toBe('');
    expect(compiled.code).toBe(0);
  }, 90_000);
});

describe('prism mock serves the OpenAPI document', () => {
  let prism: PrismProcess;
  beforeAll(async () => {
    prism = await startPrism(['mock', await writeOpenApiFile('yaml')]);
  });
  afterAll(async () => prism?.stop());

  const expectValid = (name: 'HumanEvaluation' | 'Evaluation', instance: unknown) => {
    const { valid, issues } = validate(name, instance);
    if (!valid) expect.fail(issues.map(formatIssue).join('; '));
  };

  it('answers GET /human-evaluations/{id} with a valid HumanEvaluation', async () => {
    const response = await fetch(`${prism.url}/human-evaluations/6637c0a25368ef07b03a64cd`);
    expect(response.status).toBe(200);
    expectValid('HumanEvaluation', await response.json());
  });

  it('answers POST /evaluations with an array of valid Evaluations, statically and dynamically', async () => {
    for (const prefer of ['', 'dynamic=true']) {
      const response = await fetch(`${prism.url}/evaluations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(prefer ? { prefer } : {}) },
        body: JSON.stringify(generators.CreateEvaluationRequest(1)),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as unknown[];
      expect(Array.isArray(body)).toBe(true);
      for (const evaluation of body) expectValid('Evaluation', evaluation);
    }
  });

  it('serves the error bodies the document declares', async () => {
    const unprocessable = await fetch(`${prism.url}/human-evaluations/abc`, { headers: { prefer: 'code=422' } });
    expect(unprocessable.status).toBe(422);
    expect(validate('HTTPValidationError', await unprocessable.json())).toEqual({ valid: true, issues: [] });
    const other = await fetch(`${prism.url}/human-evaluations/abc`, { headers: { prefer: 'code=404' } });
    expect(other.status).toBe(404);
    expect(validate('HTTPError', await other.json())).toEqual({ valid: true, issues: [] });
  });

  it('rejects a create request that breaks the schema, as the document says', async () => {
    const response = await fetch(`${prism.url}/evaluations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ app_id: 1 }),
    });
    expect(response.status).toBe(422);
  });
});
