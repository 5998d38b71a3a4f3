import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { generators } from '../../fixtures/generators/index.js';
import { openApiDocument, renderOpenApi } from '../../schemas/openapi/document.js';
import { resourceNames, schemas } from '../../schemas/index.js';
import { formatIssue, validate } from '../../schemas/validators/index.js';
import { projectRoot, runCli } from '../helpers/cli.js';
import { startPrism, writeOpenApiFile, type PrismProcess } from '../helpers/prism.js';

const spectral = join(projectRoot, 'node_modules/@stoplight/spectral-cli/dist/index.js');

type Document = ReturnType<typeof openApiDocument> & { components: { schemas: Record<string, Record<string, unknown>> } };

describe('the OpenAPI document', () => {
  const document = openApiDocument() as Document;

  it('is OpenAPI 3.1 with both operations of the spec and no others', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths as object)).toEqual(['/human-evaluations/{evaluation_id}', '/evaluations']);
  });

  it('takes its components from the schemas, only the $refs rewritten', () => {
    expect(Object.keys(document.components.schemas)).toEqual(resourceNames);
    for (const name of resourceNames) {
      const component = JSON.stringify(document.components.schemas[name]);
      const { $id: _id, $schema: _schema, ...source } = schemas[name];
      expect(component.replace(/"#\/components\/schemas\/(\w+)"/g, (_, ref: string) => JSON.stringify((schemas[ref as never] as { $id: string }).$id.split('/').pop()))).toBe(
        JSON.stringify(source),
      );
    }
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
    const code = await new Promise<number>((resolve) =>
      execFile(
        process.execPath,
        [spectral, 'lint', file, '--ruleset', join(projectRoot, '.spectral.yaml'), '--fail-severity', 'hint', '-f', 'json', '-o', findings],
        { timeout: 60_000 },
        (error) => resolve(error ? Number(error.code ?? 1) : 0),
      ),
    );
    expect(JSON.parse(await readFile(findings, 'utf8'))).toEqual([]);
    expect(code).toBe(0);
  }, 60_000);
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

  it('rejects a create request that breaks the schema, as the document says', async () => {
    const response = await fetch(`${prism.url}/evaluations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ app_id: 1 }),
    });
    expect(response.status).toBe(422);
  });
});
