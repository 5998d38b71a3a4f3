import { variantArrayNames } from '../../api/variant-arrays.js';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { startConformingServer, type RunningServer } from './conforming-server.js';
import { catalogue, operations, runContract, terminalReport, terminalStyle } from '../../contract/index.js';
import { escapeXml } from '../../contract/report/junit.js';
import { instant } from '../../contract/judge/instants.js';
import { fieldsOf, isOptionalProperty, undeclaredFields } from '../../contract/judge/schema-walk.js';
import { generators } from '../../generators/index.js';
import { conforming, mutations } from './bank.js';
import { declaredProperties } from '../../schemas/index.js';

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

describe('docs/contract.md', () => {
  it('documents every check of the catalogue with its severity and spec line', () => {
    const doc = readFileSync(new URL('../../docs/contract.md', import.meta.url), 'utf8');
    for (const check of catalogue)
      expect(doc).toContain(
        `| \`${check.id}\` | \`${operations[check.operation]}\` | ${check.severity} | ${check.title} | ${check.spec} |`,
      );
  });

  it('lists every entry of the bank with what it must raise', () => {
    const doc = readFileSync(new URL('../../docs/contract.md', import.meta.url), 'utf8');
    for (const entry of [...mutations, ...conforming]) {
      const raised = entry.expect.length
        ? entry.expect.map((check) => `\`${check.id}\` (${check.severity})`).join(', ')
        : 'none';
      expect(doc).toContain(`| ${entry.name} | ${raised} |`);
    }
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
