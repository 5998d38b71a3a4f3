import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { everyReportFormat } from './report-outputs.js';
import type { Report } from '../../contract/index.js';
import { runCli } from '../helpers/cli.js';
import { bankCreateBody, mutation } from './bank.js';
import { issueHint } from '../../contract/judge/hints.js';
import { build } from '../../generators/factories.js';
import { dateTimeFormatDescription } from '../../schemas/validators/date-time.js';
import { validate } from '../../schemas/validators/index.js';
import { startConformingServer, type Behaviour } from './conforming-server.js';

const dir = mkdtempSync(join(tmpdir(), 'evalkit-hints-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const body = join(dir, 'body.json');
writeFileSync(body, JSON.stringify(bankCreateBody));

/** `evalkit contract` against a broken server, read back from the terminal and the JSON report. */
async function contractOf(behaviour: Behaviour): Promise<{ stdout: string; report: Report }> {
  const server = await startConformingServer(behaviour);
  const json = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  try {
    const run = await runCli(
      ['contract', '--base-url', server.url, '--create-body', body, '--examples', '5', '--report-json', json],
      { env: { ...process.env, NO_COLOR: '1' } },
    );
    return { stdout: run.stdout, report: JSON.parse(readFileSync(json, 'utf8')) as Report };
  } finally {
    await server.close();
  }
}

/** The hint of a failed check, in the JSON report; the terminal shows it under the check's findings. */
function hintOf({ stdout, report }: { stdout: string; report: Report }, id: string): string | undefined {
  const check = report.checks.find((candidate) => candidate.id === id);
  expect(check?.outcome, id).toBe('failed');
  const lines = stdout.split('\n');
  const line = lines.findIndex((text) => text.includes(` ${id}  `));
  // The check's own lines: indented under it, up to the next check.
  const after = lines.slice(line + 1);
  const end = after.findIndex((text) => !text.startsWith('      '));
  const own = end < 0 ? after : after.slice(0, end);
  expect(
    own.find((text) => text.startsWith('       fix: ')),
    `the fix under ${id}`,
  ).toBe(`       fix: ${check?.hint}`);
  return check?.hint;
}

describe('a failed check says how to fix it, in the terminal and the JSON report', () => {
  it('a 500 to the unknown-id GET: answer 404 with a JSON detail', async () => {
    const seen = await contractOf(mutation('plain-text 500 for an unknown id'));
    expect(hintOf(seen, 'fetch.status.5xx')).toBe(
      'answer 404 with a JSON `detail` for an id that does not exist, e.g. {"detail": "Evaluation not found"}',
    );
    // Every format carries it, and only the checks with a known fix have one.
    for (const [format, text] of Object.entries(everyReportFormat(seen.report)))
      expect(text, format).toContain('answer 404 with a JSON');
    expect(seen.report.checks.filter((check) => check.hint).map((check) => check.id)).toEqual(['fetch.status.5xx']);
  });

  it('a 500 to an invalid create body: answer 422 with a JSON detail', async () => {
    const seen = await contractOf(mutation('500 instead of 422 for an invalid create request'));
    expect(hintOf(seen, 'create.status.5xx')).toBe(
      'answer 422 with a JSON `detail` naming what is wrong with the request, as FastAPI does',
    );
    // The property run's counterexample carries the same fix.
    expect(hintOf(seen, 'create.properties.invalid.5xx')).toBe(
      'answer 422 with a JSON `detail` naming what is wrong with the request, as FastAPI does',
    );
  });

  it('a date-time without an offset: the value received beside the RFC 3339 form', async () => {
    const seen = await contractOf(mutation('naive date-time without an offset'));
    expect(hintOf(seen, 'create.body.schema')).toBe(
      '/created_at: received string "2024-05-20T10:11:12.123000"; ' +
        'send an RFC 3339 date-time (a T and an offset), e.g. 2024-05-06T07:08:09Z',
    );
  });

  it('a schema failure: the pointer, the value received and the type expected', async () => {
    const seen = await contractOf(mutation('revisions as integers instead of strings'));
    expect(hintOf(seen, 'create.body.schema')).toMatch(
      /^\/revisions\/0: received number \d+; the schema says it must be string$/,
    );
    const missing = await contractOf(mutation('required user_username missing'));
    expect(hintOf(missing, 'fetch.body.schema')).toBe('add /user_username: the schema requires it');
  });
});

describe("a schema issue's fix is chosen by the rule it breaks, never by its words", () => {
  const record = { ...build('Evaluation'), created_at: '2024-05-20 10:11:12' };
  const [issue] = validate('Evaluation', record).issues;
  const rfc3339Fix =
    '/created_at: received string "2024-05-20 10:11:12"; ' +
    'send an RFC 3339 date-time (a T and an offset), e.g. 2024-05-06T07:08:09Z';

  it('a date-time format issue gets the RFC 3339 fix, whatever its message says', () => {
    expect(issue).toMatchObject({ pointer: '/created_at', keyword: 'format', format: 'date-time' });
    expect(issueHint(record, issue!)).toBe(rfc3339Fix);
    expect(issueHint(record, { ...issue!, message: 'is not a moment this service can read' })).toBe(rfc3339Fix);
  });

  it("another rule's issue worded like the date-time one gets the schema's words", () => {
    const lookalike = { pointer: '/created_at', keyword: 'pattern', message: `must be ${dateTimeFormatDescription}` };
    expect(issueHint(record, lookalike)).toBe(
      `/created_at: received string "2024-05-20 10:11:12"; the schema says it must be ${dateTimeFormatDescription}`,
    );
  });
});

describe('nothing verified because every request was refused: the credentials to pass', () => {
  const refusing = (status: number): Behaviour => ({
    raw: (_req, res) => (
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ detail: 'Not authenticated' })),
      true
    ),
  });
  const form = 'pass them with --header "Authorization: Bearer $TOKEN"';

  it.each([
    [401, 'wants'],
    [403, 'wants'],
    [400, 'may want'],
  ])('every request answered %i: the API key the document declares, as a placeholder', async (status, wants) => {
    const { stdout, report } = await contractOf(refusing(status));
    const headline =
      `nothing verified: every request was answered ${status}: the deployment ${wants} credentials ` +
      `(the OpenAPI document declares an API key in the Authorization header): ${form}`;
    expect(report.headline).toBe(headline);
    expect(stdout).toContain(headline);
  });
});
