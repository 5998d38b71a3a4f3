import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { openApiDocument, renderOpenApi } from '../../api/openapi.js';
import { schemaFor, schemaNames } from '../../schemas/index.js';
import { validate } from '../../schemas/validators/index.js';
import { projectRoot, runCli } from '../helpers/cli.js';
import { runTool } from '../helpers/node-tools.js';
import { writeOpenApiFile } from '../helpers/prism.js';
import { removeTempDirs } from '../helpers/temp-dirs.js';
import type { Operation } from '../helpers/openapi-shapes.js';

afterAll(removeTempDirs);

type Document = ReturnType<typeof openApiDocument> & {
  components: { schemas: Record<string, Record<string, unknown>> };
};

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
});
