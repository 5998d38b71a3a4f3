import { variantArrayNames } from '../../api/variant-arrays.js';
import { afterAll, describe, expect, it } from 'vitest';
import { startConformingServer, type RunningServer } from './conforming-server.js';
import { catalogue, runContract, terminalReport, terminalStyle } from '../../contract/index.js';
import { escapeXml } from '../../contract/report/junit.js';
import { instant } from '../../contract/judge/instants.js';
import { fieldsOf, isOptionalProperty, undeclaredFields } from '../../contract/judge/schema-walk.js';
import { generators } from '../../generators/index.js';
import { declaredProperties } from '../../schemas/index.js';
import { isDocumentedEvaluatorConfig } from '../../schemas/validators/index.js';
import { operationOfKey, operationTable, type OperationKey } from '../../api/operations.js';
import { pathFor } from '../../api/match.js';
import type { Exchange } from '../../http/exchange.js';
import type { Judged } from '../../contract/judge/define.js';
import { Observation } from '../../contract/judge/observation.js';
import type { Sent } from '../../contract/judge/sent.js';

const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

describe('instants', () => {
  it('orders by instant across offsets and below the millisecond', () => {
    expect(instant('2024-05-20T10:30:00+00:00')! > instant('2024-05-20T12:00:00+02:00')!).toBe(true);
    expect(instant('2024-05-20T10:11:12.123457Z')! > instant('2024-05-20T10:11:12.123456Z')!).toBe(true);
    expect(instant('2024-05-20T15:41:12.5+05:30')).toBe(instant('2024-05-20T10:11:12.500Z'));
    expect(instant('2024-05-20 10:11:12Z')).toBeUndefined();
  });
});

describe('what the checks read from the schemas', () => {
  it('tells optional properties from required ones, at any depth', () => {
    const evaluation = generators.Evaluation(1, { profile: 'full' });
    expect(isOptionalProperty('Evaluation', evaluation, '/average_cost')).toBe(true);
    expect(isOptionalProperty('Evaluation', evaluation, '/status')).toBe(false);
    expect(isOptionalProperty('Evaluation', evaluation, '/status/error')).toBe(true);
    expect(isOptionalProperty('Evaluation', evaluation, '/variant_ids/0')).toBe(false);
  });

  it('lists undeclared fields and nothing the schema declares', () => {
    const record = { ...generators.HumanEvaluation(2), extra: 1 };
    expect(undeclaredFields(fieldsOf('HumanEvaluation', record))).toEqual(['/extra']);
  });

  it('reads the variant arrays of each record from the one table of them (api/variant-arrays.ts)', () => {
    expect(variantArrayNames('HumanEvaluation')).toEqual([
      'variant_ids',
      'variant_names',
      'variants_revision_ids',
      'revisions',
    ]);
    expect(variantArrayNames('Evaluation')).toEqual([
      'variant_ids',
      'variant_names',
      'variant_revision_ids',
      'revisions',
    ]);
    expect(variantArrayNames('Evaluation').every((name) => declaredProperties('Evaluation').includes(name))).toBe(true);
  });
});

/** What a nulls check finds in a success answer to a request that should succeed: the judge alone, no server. */
function nullsFound(operation: OperationKey, body: unknown): Judged {
  const id = operationOfKey(operation);
  const { method } = operationTable[id];
  const path = pathFor(id, { evaluation_id: 'some-id' });
  const request = operation === 'create' ? generators.CreateEvaluationRequest(1) : undefined;
  const sent: Sent = { operation, outgoing: { method, path }, role: { kind: 'expected', request } };
  const text = JSON.stringify(body);
  const exchange: Exchange = {
    request: { method, url: new URL(path, 'http://127.0.0.1/'), headers: {} },
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: text,
    bodyBytes: Buffer.byteLength(text),
    redirects: [],
  };
  return catalogue.find((check) => check.id === `${operation}.body.nulls`)?.code?.(new Observation(sent, exchange, []));
}

describe('the nulls checks (decisions 12 and 13)', () => {
  const config = generators.EvaluatorConfig(1, { profile: 'full' });
  const evaluation = generators.Evaluation(1, { profile: 'full', state: 'EVALUATION_FINISHED' });
  const result = (evaluator_config: unknown) => ({ evaluator_config, result: { type: 'number', value: 0.5 } });
  const at = (index: number) => `POST /evaluations /0/aggregated_results/${index}/evaluator_config`;

  it('pass a field the spec does not list sent as null: top level, documented or undocumented config', () => {
    const body = {
      ...evaluation,
      deleted_at: null,
      aggregated_results: [result({ ...config, deleted_at: null }), result({ deleted_at: null })],
    };
    expect(isDocumentedEvaluatorConfig({ ...config, deleted_at: null })).toBe(true);
    expect(nullsFound('create', [body])).toEqual([]);
    expect(nullsFound('fetch', { ...generators.HumanEvaluation(1), deleted_at: null })).toEqual([]);
  });

  it('still report an optional field the schema declares sent as null, beside undeclared ones', () => {
    const body = {
      ...evaluation,
      average_cost: null,
      deleted_at: null,
      aggregated_results: [
        result({ ...config, deleted_at: null }),
        result({ ...config, settings_values: null, deleted_at: null }),
        result({ settings_values: null, deleted_at: null }),
      ],
    };
    // Each caused by its field, never by the record or the result it is in.
    expect(nullsFound('create', [body])).toEqual([
      { text: 'POST /evaluations /0: optional /average_cost sent as null', cause: ['/average_cost'] },
      {
        text: `${at(1)}: optional settings_values sent as null`,
        cause: ['/aggregated_results/*/evaluator_config/settings_values'],
      },
    ]);
  });
});

describe('the catalogue', () => {
  it('gives every check a unique id, a severity, an operation and a spec line', () => {
    expect(new Set(catalogue.map((check) => check.id)).size).toBe(catalogue.length);
    for (const check of catalogue) {
      expect(check.id.startsWith(`${check.operation}.`)).toBe(true);
      expect(check.spec.length).toBeGreaterThan(0);
    }
  });
});

describe('--read-only', () => {
  it('sends no POST that a server could read as a create request', async () => {
    const posts: string[] = [];
    const server = await startConformingServer({
      rewrite: (answer, context) => {
        if (context.route === 'create') posts.push(context.request ? 'parsed' : 'unparseable');
        return answer;
      },
    });
    servers.push(server);
    const report = await runContract({ baseUrl: server.url, readOnly: true, examples: 10 });
    expect(posts).toEqual(['unparseable']);
    expect(report.checks.find((check) => check.id === 'create.status.success')?.outcome).toBe('skipped');
    expect(report.checks.filter((check) => check.outcome === 'failed')).toEqual([]);
  });
});

describe('the terminal report', () => {
  it('is coloured on a TTY only, and never when NO_COLOR is set', () => {
    expect(terminalStyle({ isTTY: true }, {}).colour).toBe(true);
    expect(terminalStyle({ isTTY: true }, { NO_COLOR: '1' }).colour).toBe(false);
    expect(terminalStyle({ isTTY: false }, {}).colour).toBe(false);
  });

  it('groups checks under their operation', async () => {
    const server = await startConformingServer();
    servers.push(server);
    const text = terminalReport(await runContract({ baseUrl: server.url }), { colour: false });
    const fetchAt = text.indexOf('GET /human-evaluations/{evaluation_id}');
    const createAt = text.indexOf('POST /evaluations\n');
    expect(fetchAt).toBeGreaterThan(0);
    expect(text.indexOf('fetch.body.schema')).toBeGreaterThan(fetchAt);
    expect(text.indexOf('fetch.body.schema')).toBeLessThan(createAt);
    expect(text.indexOf('create.body.schema')).toBeGreaterThan(createAt);
  });
});

describe('JUnit escaping', () => {
  it('escapes markup, shows control characters as escapes and replaces the rest XML cannot carry', () => {
    expect(escapeXml(`<a href="x">&'\u0000\uFFFF]]>`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;\\x00\uFFFD]]&gt;');
  });
});

describe('secrets in the output', () => {
  it('redacts header values and canaries a deployment echoes into findings', async () => {
    const server = await startConformingServer({
      raw: (req, res) => {
        if (req.method !== 'GET') return false;
        res.writeHead(200, { 'content-type': 'text/html' }).end(`${String(req.headers.authorization)} is welcome`);
        return true;
      },
    });
    servers.push(server);
    const report = await runContract({ baseUrl: server.url, headers: { Authorization: 'Bearer TOPSECRET' } });
    const text = JSON.stringify(report);
    expect(report.checks.find((check) => check.id === 'fetch.body.json')?.message).toContain(
      '<AUTHORIZATION> is welcome',
    );
    expect(text).not.toContain('TOPSECRET');
  });

  it('refuses a header value HTTP cannot carry without printing it', async () => {
    await expect(
      runContract({ baseUrl: 'http://127.0.0.1:9', headers: { Authorization: 'Bearer a\r\nX-Injected: 1' } }),
    ).rejects.toThrow(/^the header Authorization has a name or value HTTP cannot carry$/);
  });
});
