import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { githubAnnotations, githubStepSummary, runContract, type Report } from '../../contract/index.js';
import { bankCreateBody, humanEvaluation, mutation } from './bank.js';
import { startConformingServer, type RunningServer } from './conforming-server.js';
import { runCli } from '../helpers/cli.js';

/** A 500 for invalid bodies whose text tries to break out of an annotation and out of the Markdown table. */
const breakout = 'line one\n::error::forged annotation\r\n| cell | <b>bold</b> 100%';

describe('GitHub annotations and step summary', () => {
  const dir = mkdtempSync(join(tmpdir(), 'evalkit-github-'));
  let server: RunningServer;
  let report: Report;

  beforeAll(async () => {
    server = await startConformingServer({
      rewrite: humanEvaluation((record) => ({ ...record, id: breakout })),
    });
    report = await runContract({ baseUrl: server.url, deployment: { createEvaluations: bankCreateBody } });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('one annotation per failed check, ::error for errors and ::warning for warnings, each on one line', () => {
    const lines = githubAnnotations(report).trimEnd().split('\n');
    const failed = report.checks.filter((check) => check.outcome === 'failed');
    expect(failed.map((check) => check.id)).toEqual(['fetch.body.id']);
    expect(lines).toHaveLength(failed.length);
    expect(lines[0]).toMatch(/^::warning title=fetch\.body\.id \(GET \/human-evaluations\/{evaluation_id}\)::GET /);
    // The finding quotes the id as JSON (its newline a literal \n); the percent sign and the real newlines are escaped.
    expect(lines[0]).toContain('line one\\n::error::forged annotation\\r\\n| cell | <b>bold</b> 100%25');
    expect(lines[0]).toContain('%0Aspec: §4.1');
  });

  it('the step summary leads with the verdict and escapes server text for Markdown and HTML', () => {
    const summary = githubStepSummary(report);
    expect(summary.split('\n')[0]).toBe(
      '## evalkit contract: PASS (1 warning: warnings fail a run only with --strict)',
    );
    expect(summary).toContain('| WARN | `fetch.body.id` |');
    expect(summary).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(summary).not.toContain('<b>');
    expect(summary).toContain('\\| cell \\|');
    expect(summary.split('\n').filter((line) => line.startsWith('| WARN'))).toHaveLength(1);
    expect(summary).toContain('| SKIP | `create.properties.valid` | skipped: not run: pass --examples N |');
  });

  it('the CLI writes both on GITHUB_ACTIONS=true, appending to $GITHUB_STEP_SUMMARY', async () => {
    const broken = await startConformingServer(mutation('required user_username missing'));
    const summaryFile = join(dir, 'summary.md');
    writeFileSync(summaryFile, '# earlier step\n');
    const { code, stdout } = await runCli(['contract', '--base-url', broken.url], {
      env: { ...process.env, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile, NO_COLOR: '1' },
    });
    await broken.close();
    expect(code).toBe(1);
    expect(stdout.split('\n').filter((line) => line.startsWith('::'))).toEqual([
      expect.stringMatching(/^::error title=fetch\.body\.schema /),
    ]);
    const written = readFileSync(summaryFile, 'utf8');
    expect(written.startsWith('# earlier step\n## evalkit contract: FAIL (1 error)\n')).toBe(true);
    expect(written).toContain('| FAIL | `fetch.body.schema` |');
  });
});
