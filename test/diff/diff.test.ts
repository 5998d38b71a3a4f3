import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { renderOpenApi } from '../../api/openapi.js';
import { startMockServer } from '../../mock/index.js';
import { runCli } from '../helpers/cli.js';

type Json = Record<string, unknown>;

/** A document as tests edit it. */
interface Document {
  components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>>; required: string[] }> };
  [key: string]: unknown;
}

const ours = (): Document => JSON.parse(renderOpenApi('json')) as Document;
const schema = (document: Document, name: string) =>
  document.components.schemas[name] as Document['components']['schemas'][string];

/** Our document with one change made to it. */
function edited(change: (document: Document) => void): Document {
  const document = ours();
  change(document);
  return document;
}

/** The document with its HumanEvaluation.status an enum of these states. */
function withStates(states: string[]): Document {
  return edited((document) => {
    schema(document, 'HumanEvaluation').properties.status = { type: 'string', enum: states };
  });
}

const states = ['EVALUATION_INITIALIZED', 'EVALUATION_STARTED', 'EVALUATION_FINISHED', 'EVALUATION_FAILED'];

/** Each change alone: the old document, the new one, the field the output must name, whether it breaks a client. */
const pairs: Array<{ name: string; old: () => Document; next: () => Document; field: string; breaks: boolean }> = [
  {
    name: 'a response field renamed',
    old: ours,
    next: () =>
      edited((document) => {
        const human = schema(document, 'HumanEvaluation');
        human.properties.testset = human.properties.testset_name as Record<string, unknown>;
        delete human.properties.testset_name;
        human.required = human.required.map((name) => (name === 'testset_name' ? 'testset' : name));
      }),
    field: 'body.testset_name: renamed to testset',
    breaks: true,
  },
  {
    name: 'a request field added as required',
    old: ours,
    next: () =>
      edited((document) => {
        const request = schema(document, 'CreateEvaluationRequest');
        request.properties.project_id = { type: 'string' };
        request.required.push('project_id');
      }),
    field: 'body.project_id: added, required',
    breaks: true,
  },
  {
    name: 'a date-time narrowed to a date',
    old: ours,
    next: () =>
      edited((document) => {
        (schema(document, 'HumanEvaluation').properties.created_at as Record<string, unknown>).format = 'date';
      }),
    field: 'body.created_at: format date-time → date',
    breaks: true,
  },
  {
    name: 'a response field removed',
    old: ours,
    next: () =>
      edited((document) => {
        const evaluation = schema(document, 'Evaluation');
        delete evaluation.properties.average_cost;
      }),
    field: 'body[].average_cost: removed',
    breaks: true,
  },
  {
    name: 'an optional request field made required',
    old: ours,
    next: () =>
      edited((document) => {
        schema(document, 'CreateEvaluationRequest').required.push('correct_answer_column');
      }),
    field: 'body.correct_answer_column: made required',
    breaks: true,
  },
  {
    name: 'a response enum narrowed',
    old: () => withStates(states),
    next: () => withStates(states.slice(0, 3)),
    field: 'body.status: enum narrowed: EVALUATION_FAILED removed',
    breaks: false,
  },
  {
    name: 'a response field made required',
    old: ours,
    next: () =>
      edited((document) => {
        schema(document, 'Evaluation').required.push('testset_id');
      }),
    field: 'body[].testset_id: made required',
    breaks: false,
  },
  {
    name: 'an optional request field added',
    old: ours,
    next: () =>
      edited((document) => {
        schema(document, 'CreateEvaluationRequest').properties.note = { type: 'string' };
      }),
    field: 'body.note: added, optional',
    breaks: false,
  },
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evalkit-diff-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Writes both documents, the new one in this form, and runs evalkit diff on them. */
async function diffAs(format: 'json' | 'yaml', old: Document, next: Document, options: string[]) {
  const oldFile = join(dir, `old-${Math.random().toString(36).slice(2)}.json`);
  const newFile = join(dir, `new-${Math.random().toString(36).slice(2)}.${format}`);
  await writeFile(oldFile, JSON.stringify(old));
  await writeFile(newFile, format === 'yaml' ? stringify(next) : JSON.stringify(next));
  return runCli(['diff', oldFile, newFile, ...options]);
}

/**
 * Both documents written as JSON. YAML is read into the same value (the tests below with `diffYaml`, and a third of
 * the property's runs): writing and parsing it costs dozens of times what JSON does.
 */
const diff = (old: Document, next: Document, ...options: string[]) => diffAs('json', old, next, options);

/** The new document written as YAML. */
const diffYaml = (old: Document, next: Document) => diffAs('yaml', old, next, []);

describe('evalkit diff on version pairs of evalkit’s own document, each change alone', () => {
  for (const pair of pairs)
    it(`${pair.name}: exit ${pair.breaks ? 1 : 0}, the field named`, async () => {
      const { code, stdout, stderr } = await diff(pair.old(), pair.next());
      expect(stderr).toBe('');
      expect(code).toBe(pair.breaks ? 1 : 0);
      const line = stdout.split('\n').find((candidate) => candidate.includes(pair.field));
      expect(line, stdout).toBeDefined();
      expect(line?.trimStart().startsWith('BREAKING')).toBe(pair.breaks);
    });

  it('the document against itself, in JSON and in YAML: exit 0, no change', async () => {
    const { code, stdout } = await diffYaml(ours(), ours());
    expect(code).toBe(0);
    expect(stdout).toContain('no change to the two operations');
  });

  it('--format json: each change with its operation, part, status, field and whether it breaks', async () => {
    const [removed] = pairs.filter((pair) => pair.name === 'a response field removed');
    const { code, stdout } = await diff(ours(), removed?.next() as Document, '--format', 'json');
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { breaking: number; changes: unknown[] };
    expect(report.breaking).toBe(1);
    expect(report.changes).toEqual([
      {
        operation: 'POST /evaluations',
        part: 'response',
        status: '200',
        field: 'body[].average_cost',
        change: 'removed',
        breaking: true,
        accepted: false,
        // Stable: a hash of the operation, where and what, the same in every run.
        id: '7620191fa119',
      },
    ]);
  });

  it('an operation moved under another base path: breaking, the old and the new path named', async () => {
    const next = ours();
    const paths = next.paths as Record<string, unknown>;
    next.paths = Object.fromEntries(Object.entries(paths).map(([path, item]) => [`/api/v2${path}`, item]));
    // A recursive schema: Error.cause is an Error.
    schema(next, 'Error').properties.cause = { $ref: '#/components/schemas/Error' };
    const old = ours();
    schema(old, 'Error').properties.cause = { $ref: '#/components/schemas/Error' };
    const { code, stdout } = await diff(old, next);
    expect(stdout).toContain('BREAKING  request  operation: path moved: /evaluations → /api/v2/evaluations');
    expect(stdout).toContain(
      'BREAKING  request  operation: path moved: /human-evaluations/{evaluation_id} → ' +
        '/api/v2/human-evaluations/{evaluation_id}',
    );
    expect(stdout).toContain('2 breaking changes, 0 other');
    expect(code).toBe(1);
  });

  it('a trailing slash added to a path, as FastAPI documents a router\'s "/": a move, breaking', async () => {
    const next = ours();
    const paths = next.paths as Record<string, unknown>;
    next.paths = Object.fromEntries(
      Object.entries(paths).map(([path, item]) => [path === '/evaluations' ? '/evaluations/' : path, item]),
    );
    const { code, stdout } = await diff(ours(), next);
    expect(stdout).toContain('BREAKING  request  operation: path moved: /evaluations → /evaluations/');
    expect(stdout).toContain('1 breaking change, 0 other');
    expect(code).toBe(1);
  });

  it('the same paths served from a base path moved out of the server URL, a parameter renamed: no change', async () => {
    const old = ours();
    old.servers = [{ url: 'https://staging.example.com/api/v2/' }];
    const next = ours();
    next.servers = [{ url: 'https://staging.example.com' }];
    const paths = next.paths as Record<string, unknown>;
    next.paths = Object.fromEntries(
      Object.entries(paths).map(([path, item]) => [`/api/v2${path.replace('{evaluation_id}', '{id}')}`, item]),
    );
    const operation = (next.paths as Record<string, { get?: { parameters: Array<{ name: string }> } }>)[
      '/api/v2/human-evaluations/{id}'
    ]?.get;
    for (const parameter of operation?.parameters ?? []) if (parameter.name === 'evaluation_id') parameter.name = 'id';
    const { code, stdout } = await diff(old, next);
    expect(stdout).toContain('no change to the two operations');
    expect(code).toBe(0);
  });
});

describe('evalkit diff on other forms of the same changes', () => {
  /** The schemas of a document, to edit in place. */
  const schemas = (document: Document) => document.components.schemas as Record<string, Record<string, unknown>>;

  it('OpenAPI 3.0 `nullable: true` on a response field, under application/json; charset=utf-8: breaks', async () => {
    const old = ours();
    const next = ours();
    old.openapi = '3.0.3';
    next.openapi = '3.0.3';
    (schema(next, 'HumanEvaluation').properties.testset_name as Record<string, unknown>).nullable = true;
    const paths = next.paths as Record<string, Record<string, { responses: Record<string, { content: object }> }>>;
    const ok = paths['/human-evaluations/{evaluation_id}']?.get?.responses['200'] as {
      content: Record<string, unknown>;
    };
    ok.content = { 'application/json; charset=utf-8': ok.content['application/json'] };
    const { code, stdout } = await diff(old, next);
    expect(stdout).toContain('BREAKING  response 200  body.testset_name: made nullable');
    expect(code).toBe(1);
  });

  it('an untyped value written as anyOf [{}, null] (FastAPI, v0.17.5 to v0.24.4): no change, null passed', async () => {
    const old = ours();
    const next = ours();
    const value = (document: Document) => schema(document, 'Result').properties as Record<string, unknown>;
    value(old).value = { title: 'Value' };
    value(next).value = { anyOf: [{}, { type: 'null' }], title: 'Value' };
    const { code, stdout } = await diff(old, next);
    expect(stdout).not.toContain('made nullable');
    expect(code, stdout).toBe(0);
    // A typed value made nullable still is.
    value(old).value = { type: 'number' };
    value(next).value = { anyOf: [{ type: 'number' }, { type: 'null' }] };
    expect((await diff(old, next)).stdout).toContain('value: made nullable');
  });

  it("a type read from what the schema lets through: null alone is a type, an enum has its values' types", async () => {
    const old = ours();
    const next = ours();
    const name = (document: Document) => schema(document, 'HumanEvaluation').properties;
    // Null alone, then integers: the server now sends what a client refused.
    name(old).testset_name = { type: 'null' };
    name(next).testset_name = { type: 'integer' };
    const widened = await diff(old, next);
    expect(widened.stdout).toContain('BREAKING  response 200  body.testset_name: type null → integer');
    // A string or a boolean, then the one value true: fewer values, no break.
    name(old).testset_name = { type: ['string', 'boolean'] };
    name(next).testset_name = { enum: [true] };
    const narrowed = await diff(old, next);
    expect(narrowed.stdout).not.toContain('BREAKING');
    expect(narrowed.code, narrowed.stdout).toBe(0);
  });

  it('FastAPI’s optional form (anyOf with null) made required and non-null in a response: fine', async () => {
    const old = ours();
    const human = schema(old, 'HumanEvaluation');
    human.properties.testset_name = { anyOf: [{ type: 'string' }, { type: 'null' }] };
    human.required = human.required.filter((name) => name !== 'testset_name');
    const { code, stdout } = await diff(old, ours());
    expect(stdout).toContain('ok        response 200  body.testset_name: made required');
    expect(stdout).toContain('ok        response 200  body.testset_name: no longer nullable');
    expect(code).toBe(0);
  });

  it('a request enum narrowed (via $ref), a response type widened: break; a request type widened: fine', async () => {
    const withEnum = (values: string[]) =>
      edited((document) => {
        schemas(document).Column = { type: 'string', enum: values };
        schema(document, 'CreateEvaluationRequest').properties.correct_answer_column = {
          $ref: '#/components/schemas/Column',
        };
      });
    const narrowed = await diff(withEnum(['answer', 'expected']), withEnum(['answer']));
    expect(narrowed.stdout).toContain('BREAKING  request  body.correct_answer_column: enum narrowed: expected removed');
    expect(narrowed.code).toBe(1);
    const widened = ours();
    const rateLimit = schema(widened, 'RateLimit');
    (rateLimit.properties.batch_size as Record<string, unknown>).type = 'number';
    const { code, stdout } = await diff(ours(), widened);
    // RateLimit is only in the request: a number where an integer was is more a client may send, which is fine.
    expect(stdout).toContain('ok        request  body.rate_limit.batch_size: type integer → number');
    expect(code).toBe(0);
    const twoTypes = ours();
    (schema(twoTypes, 'HumanEvaluation').properties.user_username as Record<string, unknown>).type = [
      'string',
      'integer',
    ];
    const response = await diff(ours(), twoTypes);
    expect(response.stdout).toContain('BREAKING  response 200  body.user_username: type string → string, integer');
    expect(response.code).toBe(1);
  });
});

describe('evalkit diff on keywords: judged by what they let through, never passed over', () => {
  const requestField = (document: Document, name: string) =>
    schema(document, 'CreateEvaluationRequest').properties[name] as Record<string, unknown>;

  it('propertyNames added to lm_providers_keys: a request that may name fewer providers breaks', async () => {
    const next = ours();
    requestField(next, 'lm_providers_keys').propertyNames = { enum: ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY'] };
    const { code, stdout } = await diff(ours(), next);
    expect(stdout).toContain(
      'BREAKING  request  body.lm_providers_keys.(property names): enum added: OPENAI_API_KEY, ANTHROPIC_API_KEY',
    );
    expect(code).toBe(1);
    // Names that are strings, as every name is: nothing narrowed.
    const loose = ours();
    requestField(loose, 'lm_providers_keys').propertyNames = { type: 'string' };
    expect((await diff(ours(), loose)).stdout).toContain('no change to the two operations');
  });

  it('a bound that constrains nothing (minItems 0, minLength 0, uniqueItems false) is no change', async () => {
    const next = ours();
    requestField(next, 'evaluators_configs').minItems = 0;
    requestField(next, 'evaluators_configs').uniqueItems = false;
    requestField(next, 'testset_id').minLength = 0;
    const { code, stdout } = await diff(ours(), next);
    expect(stdout).toContain('no change to the two operations');
    expect(code).toBe(0);
    const raised = ours();
    requestField(raised, 'evaluators_configs').minItems = 1;
    expect((await diff(next, raised)).stdout).toContain(
      'BREAKING  request  body.evaluators_configs: minItems none → 1',
    );
  });

  it('a keyword evalkit does not model: said so, judged by its direction (added narrows, removed widens)', async () => {
    const next = ours();
    requestField(next, 'testset_id').not = { const: '' };
    requestField(next, 'testset_id')['x-internal'] = true;
    requestField(next, 'testset_id').description = 'reworded';
    const { code, stdout } = await diff(ours(), next);
    expect(stdout).toContain(
      'BREAKING  request  body.testset_id: not added (evalkit does not model not: judged by its direction)',
    );
    expect(stdout).toContain('1 breaking change, 0 other');
    expect(code).toBe(1);
    // In a response, an added assertion only narrows what the server may send: listed, no break.
    const narrowed = ours();
    (schema(narrowed, 'HumanEvaluation') as Record<string, unknown>).dependentRequired = {
      testset_name: ['testset_id'],
    };
    const response = await diff(ours(), narrowed);
    expect(response.stdout).toContain(
      'ok        response 200  body: dependentRequired added (evalkit does not model dependentRequired: judged by its',
    );
    expect(response.code, response.stdout).toBe(0);
  });

  it('anyOf alternatives reordered, as FastAPI and pydantic do freely: no change', async () => {
    const next = ours();
    const result = schema(next, 'AggregatedResult').properties.evaluator_config as { anyOf: unknown[] };
    result.anyOf.reverse();
    const { code, stdout } = await diff(ours(), next);
    expect(stdout).toContain('no change to the two operations');
    expect(code, stdout).toBe(0);
  });

  it("a request field's default changed: listed, not breaking", async () => {
    const old = ours();
    const next = ours();
    schema(old, 'RateLimit').properties.batch_size = { type: 'integer', default: 10 };
    schema(next, 'RateLimit').properties.batch_size = { type: 'integer', default: 5 };
    const { code, stdout } = await diff(old, next);
    expect(stdout).toContain(
      'ok        request  body.rate_limit.batch_size: default 10 → 5: a client that leaves it out gets another value',
    );
    expect(code, stdout).toBe(0);
  });
});

describe('evalkit diff on the operations themselves: lifecycle, names, security, headers', () => {
  type Operations = Record<string, Record<string, Record<string, unknown>>>;
  const operationOf = (document: Document, path: string, method: string) =>
    (document.paths as Operations)[path]?.[method] as Record<string, unknown>;

  it('the call without credentials taken away: breaking, named', async () => {
    const next = ours();
    next.security = [{ apiKey: [] }];
    const { code, stdout } = await diff(ours(), next);
    expect(stdout).toContain('BREAKING  request  operation: security: a call without credentials is no longer allowed');
    expect(code).toBe(1);
  });

  it('a required response header no longer sent: breaking; an optional one: listed', async () => {
    const old = ours();
    const ok = (operationOf(old, '/human-evaluations/{evaluation_id}', 'get').responses as Operations)['200'];
    (ok as Record<string, unknown>).headers = {
      'X-Request-Id': { required: true, schema: { type: 'string' } },
      ETag: { schema: { type: 'string' } },
    };
    const { code, stdout } = await diff(old, ours());
    expect(stdout).toContain('BREAKING  response 200  header.x-request-id: no longer sent');
    expect(stdout).toContain('ok        response 200  header.etag: optional, removed');
    expect(code).toBe(1);
  });

  it('a component schema renamed with the same shape: one rename line, no schema change, exit 0', async () => {
    const text = JSON.stringify(ours())
      .replaceAll('"#/components/schemas/Evaluation"', '"#/components/schemas/EvaluationRecord"')
      .replace('"Evaluation":{', '"EvaluationRecord":{');
    const next = JSON.parse(text) as Document;
    expect(Object.keys(next.components.schemas)).toContain('EvaluationRecord');
    const { code, stdout } = await diff(ours(), next);
    const lines = stdout.split('\n').filter((line) => line.includes('renamed to EvaluationRecord'));
    expect(lines).toEqual([
      expect.stringMatching(/^ {2}ok {8}response 200 {2}body\[\]: schema Evaluation renamed to EvaluationRecord: /),
    ]);
    expect(stdout).toContain('no breaking change (1 other)');
    expect(code, stdout).toBe(0);
  });

  it('an operationId renamed, the operation deprecated with a sunset: listed, not breaking', async () => {
    const next = ours();
    const create = operationOf(next, '/evaluations', 'post');
    create.operationId = 'createEvaluation';
    create.deprecated = true;
    create['x-sunset'] = '2027-06-30';
    const { code, stdout } = await diff(ours(), next);
    expect(stdout).toContain(
      'ok        request  operation: operationId createEvaluations → createEvaluation: generated clients rename it',
    );
    expect(stdout).toContain('ok        request  operation: deprecated: it may be removed; plan the move');
    expect(stdout).toContain('ok        request  operation: sunset 2027-06-30: removed after that date');
    expect(code, stdout).toBe(0);
  });
});

describe('evalkit diff where reviewers look: markdown, GitHub annotations, ids an ignore file accepts', () => {
  /** A breaking change and one that is not: testset_name made nullable in a response, a default added. */
  function pair(): [Document, Document] {
    const old = ours();
    const next = ours();
    schema(next, 'HumanEvaluation').properties.testset_name = { type: ['string', 'null'] };
    schema(next, 'RateLimit').properties.batch_size = { type: 'integer', default: 10 };
    return [old, next];
  }

  it('--format markdown: a table for a pull-request comment, breaking first, each with its id', async () => {
    const { code, stdout } = await diff(...pair(), '--format', 'markdown');
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(
      '### evalkit diff: 1 breaking change, 1 other: a client written against the old document breaks on the new one',
    );
    expect(lines.slice(2, 4)).toEqual(['| | Operation | Where | Field | Change | Id |', '|---|---|---|---|---|---|']);
    expect(lines[4]).toMatch(
      new RegExp(
        '^\\| BREAKING \\| GET /human-evaluations/\\{evaluation_id\\} \\| response 200 \\| `body\\.testset_name` \\| ' +
          'made nullable \\| `[0-9a-f]{12}` \\|$',
      ),
    );
    expect(lines[5]).toMatch(
      /^\| ok \| POST \/evaluations \| request \| `body\.rate_limit\.batch_size` \| default 10 added/,
    );
    expect(code).toBe(1);
  });

  it('--format github: an ::error per breaking change on the new file, a ::notice per other, escaped', async () => {
    const { code, stdout } = await diff(...pair(), '--format', 'github');
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(
        '^::error file=[^,]*new-[a-z0-9]+\\.json,title=BREAKING%3A GET /human-evaluations/\\{evaluation_id\\}::' +
          'response 200 body\\.testset_name: made nullable \\[[0-9a-f]{12}\\]$',
      ),
    );
    expect(lines[1]).toMatch(
      /^::notice file=.*title=ok%3A POST \/evaluations::request body\.rate_limit\.batch_size: default 10 added/,
    );
    expect(lines.at(-1)).toBe(
      '::notice title=evalkit diff::1 breaking change, 1 other: ' +
        'a client written against the old document breaks on the new one',
    );
    expect(code).toBe(1);
  });

  it('--ignore FILE: a breaking change listed by its id is accepted, still shown, no longer failing', async () => {
    const json = await diff(...pair(), '--format', 'json');
    const [breaking] = (JSON.parse(json.stdout) as { changes: Array<{ id: string; breaking: boolean }> }).changes;
    const file = join(dir, `accepted-${Math.random().toString(36).slice(2)}.txt`);
    await writeFile(file, `# reviewed in #123\n${breaking?.id ?? ''}  # testset_name may be null\n`);
    const accepted = await diff(...pair(), '--ignore', file);
    expect(accepted.stdout).toMatch(
      /^ {2}accepted {2}response 200 {2}body\.testset_name: made nullable \[[0-9a-f]{12}\]$/m,
    );
    expect(accepted.stdout).toContain('no breaking change (1 other, 1 accepted)');
    expect(accepted.code).toBe(0);
    // An id no change has any more is stale: named in every format, failing nothing, so the baseline shrinks.
    await writeFile(file, `${breaking?.id ?? ''}\n0123456789ab\n`);
    const stale = await diff(...pair(), '--ignore', file);
    expect(stale.stdout).toContain(
      '--ignore: 1 accepted id found; 1 stale id, found no more (remove from the file): 0123456789ab',
    );
    expect(stale.code).toBe(0);
    for (const [format, shown] of [
      ['json', '"stale": [\n      "0123456789ab"'],
      ['markdown', '1 stale id, found no more'],
      ['github', '::notice title=evalkit diff --ignore::--ignore: 1 accepted id found; 1 stale id'],
    ])
      expect((await diff(...pair(), '--ignore', file, '--format', format as string)).stdout).toContain(shown);
    await writeFile(file, 'made nullable\n');
    const wrong = await diff(...pair(), '--ignore', file);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/--ignore .* line 1: "made nullable" is not an id/);
  });
});

describe('evalkit diff usage errors: exit 2, one line naming the file and the problem', () => {
  it('a missing file', async () => {
    const { code, stderr } = await runCli(['diff', join(dir, 'absent.json'), join(dir, 'absent.json')]);
    expect(code).toBe(2);
    expect(stderr).toBe(`evalkit diff: cannot read ${join(dir, 'absent.json')} (ENOENT)\n`);
  });

  it('a document that is not OpenAPI 3', async () => {
    const file = join(dir, 'package.json');
    await writeFile(file, '{"name": "not-an-api"}');
    const { code, stderr } = await runCli(['diff', file, file]);
    expect(code).toBe(2);
    expect(stderr).toBe(`evalkit diff: ${file}: not an OpenAPI 3.0 or 3.1 document (no "openapi": "3.x" field)\n`);
  });

  it('a $ref with a malformed %-escape: the file and the $ref named, not a bare "URI malformed"', async () => {
    const broken = edited((document) => {
      schema(document, 'HumanEvaluation').properties.status = { $ref: '#/components/schemas/%E0' };
    });
    const { code, stderr } = await diffYaml(ours(), broken);
    expect(code).toBe(2);
    // The file (NEW, written as YAML), the $ref and where it is.
    const [file] = /\S+\/new-\w+\.yaml/.exec(stderr) ?? [''];
    expect(stderr).toBe(
      `evalkit diff: ${file}: the $ref #/components/schemas/%E0 ` +
        'at #/components/schemas/HumanEvaluation/properties/status has a malformed %-escape\n',
    );
  });

  it('one document instead of two', async () => {
    const { code, stderr } = await runCli(['diff', 'only.json']);
    expect(code).toBe(2);
    expect(stderr).toContain('takes two documents, OLD and NEW, got 1');
  });
});

describe('evalkit diff --traffic: each breaking change weighed by recorded requests and answers', () => {
  /** A proxy --record folder: two create requests (one without correct_answer_column) and two fetch answers. */
  async function recordedFolder(): Promise<string> {
    const folder = join(dir, `recorded-${Math.random().toString(36).slice(2)}`);
    await mkdir(join(folder, 'human-evaluations'), { recursive: true });
    const human = (ours() as unknown as { components: { schemas: { HumanEvaluation: { examples: Json[] } } } })
      .components.schemas.HumanEvaluation.examples[0] as Json;
    await writeFile(join(folder, 'human-evaluations', 'a1.json'), JSON.stringify({ ...human, id: 'a1' }));
    const { testset_name: _dropped, ...withoutName } = human;
    await writeFile(join(folder, 'human-evaluations', 'a2.json'), JSON.stringify({ ...withoutName, id: 'a2' }));
    const create = (body: Json) =>
      JSON.stringify({ method: 'POST', path: '/evaluations', status: 200, request: { headers: {}, body } });
    // `client`: a field the app sends that the document does not name (yet).
    const base = { app_id: 'a', variant_ids: ['v'], evaluators_configs: ['e'], testset_id: 't', client: 'web' };
    await writeFile(
      join(folder, 'requests.jsonl'),
      `${create({ ...base, correct_answer_column: 'c' })}\n${create(base)}\n`,
    );
    return folder;
  }

  it('a field now required that one recorded request lacks, a renamed field one recorded answer carried', async () => {
    const folder = await recordedFolder();
    const required = pairs.find((pair) => pair.name === 'an optional request field made required') as (typeof pairs)[0];
    const renamed = pairs.find((pair) => pair.name === 'a response field renamed') as (typeof pairs)[0];
    const request = await diff(ours(), required.next(), '--traffic', folder);
    expect(request.stdout).toContain('body.correct_answer_column: made required (touches 1 of 2 recorded requests)');
    const response = await diff(ours(), renamed.next(), '--traffic', folder, '--format', 'json');
    const [change] = (JSON.parse(response.stdout) as { changes: Array<{ traffic: unknown }> }).changes;
    expect(change?.traffic).toEqual({ touched: 1, of: 2, what: 'answers' });
  });

  it('a new required field every recorded request already sends touches none of them', async () => {
    const folder = await recordedFolder();
    const next = ours();
    const request = schema(next, 'CreateEvaluationRequest');
    request.properties.client = { type: 'string' };
    request.required.push('client');
    const { code, stdout } = await diff(ours(), next, '--traffic', folder);
    expect(code).toBe(1);
    expect(stdout).toContain('body.client: added, required (touches none of 2 recorded requests)');
  });

  it('a journal export: a removed field every recorded answer carried touches all of them', async () => {
    const mock = await startMockServer({ port: 0 });
    const journal = join(dir, 'journal.json');
    try {
      for (const id of ['6637c0a25368ef07b03a64cd', '6637c0a25368ef07b03a64ce'])
        await (await fetch(`${mock.url}/human-evaluations/${id}`)).text();
      await writeFile(journal, await (await fetch(`${mock.url}/__evalkit/requests`)).text());
    } finally {
      await mock.close();
    }
    const next = ours();
    const human = schema(next, 'HumanEvaluation');
    delete human.properties.user_username;
    human.required = human.required.filter((name) => name !== 'user_username');
    const { code, stdout } = await diff(ours(), next, '--traffic', journal);
    expect(stdout).toContain('body.user_username: removed (touches 2 of 2 recorded answers)');
    expect(code).toBe(1);
  });

  it('a --traffic path that is neither a journal export nor a record folder: exit 2', async () => {
    const { code, stderr } = await diff(ours(), ours(), '--traffic', dir);
    expect(code).toBe(2);
    expect(stderr).toContain(`--traffic: ${dir} is not a proxy --record folder`);
  });
});

describe('evalkit diff --traffic: query parameters weighed by the recorded queries', () => {
  const fetchPath = '/human-evaluations/{evaluation_id}';
  const secret = 'query-secret-5b17c0';

  /** Our document with these query parameters on the fetch operation (the spec's two have none: made for the test). */
  function withQuery(...parameters: Json[]): Document {
    return edited((document) => {
      const paths = document.paths as Record<string, Record<string, Json>>;
      const fetchOperation = paths[fetchPath]?.get as Json;
      fetchOperation.parameters = [
        ...(fetchOperation.parameters as Json[]),
        ...parameters.map((parameter) => ({ in: 'query', ...parameter })),
      ];
    });
  }

  const project = (required: boolean): Json => ({ name: 'project', required, schema: { type: 'string' } });
  const limit = (type: string): Json => ({ name: 'limit', required: false, schema: { type } });

  /**
   * A journal export of three fetches sent to a real mock: one with `?project=p&limit=5`, one with only a credential
   * in its query, one with none; the credential's value is nowhere in the file.
   */
  async function journalWithQueries(): Promise<string> {
    const mock = await startMockServer({ port: 0 });
    const journal = join(dir, `journal-${Math.random().toString(36).slice(2)}.json`);
    try {
      for (const query of ['?project=p&limit=5', `?api_key=${secret}`, ''])
        await (await fetch(`${mock.url}/human-evaluations/6637c0a25368ef07b03a64cd${query}`)).text();
      const text = await (await fetch(`${mock.url}/__evalkit/requests`)).text();
      expect(text).not.toContain(secret);
      await writeFile(journal, text);
    } finally {
      await mock.close();
    }
    return journal;
  }

  it('a query parameter made required: exit 1, named, touching the recorded requests that lack it', async () => {
    const journal = await journalWithQueries();
    const { code, stdout } = await diff(withQuery(project(false)), withQuery(project(true)), '--traffic', journal);
    expect(stdout).toContain('BREAKING  request  query.project: made required (touches 2 of 3 recorded requests)');
    expect(stdout).not.toContain(secret);
    expect(code).toBe(1);
  });

  it('a query parameter retyped touches the requests that send it; one removed, those it now ignores', async () => {
    const journal = await journalWithQueries();
    const retyped = await diff(withQuery(limit('integer')), withQuery(limit('boolean')), '--traffic', journal);
    expect(retyped.stdout).toContain(
      'BREAKING  request  query.limit: type integer → boolean (touches 1 of 3 recorded requests)',
    );
    expect(retyped.code).toBe(1);
    const removed = await diff(withQuery(limit('integer')), ours(), '--traffic', journal);
    expect(removed.stdout).toContain('ok        request  query.limit: removed: now ignored (touches 1 of 3 recorded');
    expect(removed.code).toBe(0);
  });

  it('a record written before queries were kept reads as sending none', async () => {
    const folder = join(dir, `recorded-${Math.random().toString(36).slice(2)}`);
    await mkdir(folder);
    const line = (query?: string) =>
      JSON.stringify({ method: 'GET', path: '/human-evaluations/a1', status: 200, query, request: { headers: {} } });
    await writeFile(join(folder, 'requests.jsonl'), `${line('project=p')}\n${line()}\n`);
    const { stdout } = await diff(withQuery(project(false)), withQuery(project(true)), '--traffic', folder);
    expect(stdout).toContain('query.project: made required (touches 1 of 2 recorded requests)');
  });
});
