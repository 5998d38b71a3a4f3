import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForBrowser } from '../../bench/browser-bundle.js';
import { build } from '../../fixtures/factories.js';
import { createMockApp } from '../../mock/index.js';
import { createRequest } from '../mock/helpers.js';
import { expectEvaluations, expectValid } from '../mock/helpers.js';
import type { CorpusRequest } from '../msw/corpus.js';
import { observeExpress, type Observed } from '../msw/observe.js';
import { pageOptions } from './page-options.js';

const executablePath = '/usr/bin/chromium';
const hasChromium = existsSync(executablePath);
const root = fileURLToPath(new URL('../../', import.meta.url));
if (!hasChromium) console.warn(`browser test skipped: no Chromium at ${executablePath} (.ci/run installs Debian's chromium package)`);

const requests: CorpusRequest[] = [
  ...['6637c0a25368ef07b03a64cd', '0190a4c2-7b1e-7c3a-9f00-1a2b3c4d5e6f', 'browser-1', 'browser-1'].map((id) => ({
    name: `GET ${id}`,
    method: 'GET',
    path: `/human-evaluations/${id}`,
  })),
  { name: 'GET failed', method: 'GET', path: '/human-evaluations/browser-2', headers: { Prefer: 'state=failed' } },
  { name: 'POST valid', method: 'POST', path: '/evaluations', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(createRequest()) },
  { name: 'POST invalid', method: 'POST', path: '/evaluations', headers: { 'Content-Type': 'application/json' }, body: '{"app_id": 1}' },
];

/** Serves the page, its bundle and the worker script that `msw init` writes. */
async function servePage(dir: string, bundle: Uint8Array): Promise<{ server: Server; url: string }> {
  const files: Record<string, [string, Uint8Array | string]> = {
    '/': ['text/html', '<!doctype html><meta charset="utf-8"><title>evalkit</title><script type="module" src="/page.js"></script>'],
    '/page.js': ['text/javascript', bundle],
    '/mockServiceWorker.js': ['text/javascript', readFileSync(join(dir, 'mockServiceWorker.js'))],
  };
  const server = createServer((req, res) => {
    const file = files[req.url ?? ''];
    res.writeHead(file ? 200 : 404, { 'Content-Type': file ? file[0] : 'text/plain' });
    res.end(file ? file[1] : 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe.skipIf(!hasChromium)('evalkit/msw in headless Chromium (service worker from msw init)', () => {
  let browser: Browser | undefined;
  let server: Server | undefined;
  let answers: Observed[] = [];
  let built: { evaluation: unknown; error: string } | undefined;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evalkit-browser-'));
    // An app's folder, as `msw init` expects one: a package.json, and the public folder it copies the worker into.
    writeFileSync(join(dir, 'package.json'), '{}');
    execFileSync(process.execPath, [join(root, 'node_modules/msw/cli/index.js'), 'init', dir, '--no-save'], { cwd: dir, stdio: 'ignore' });
    const { code } = await bundleForBrowser(join(root, 'test/browser/page.ts'));
    const served = await servePage(dir, code);
    server = served.server;
    browser = await chromium.launch({
      executablePath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(served.url);
    await page.waitForFunction(() => (globalThis as { evalkitReady?: unknown }).evalkitReady !== undefined);
    await page.evaluate(() => (globalThis as { evalkitReady?: Promise<unknown> }).evalkitReady);
    expect(errors).toEqual([]);
    answers = await page.evaluate(
      async ({ entries, base }) => {
        const observed = [];
        for (const entry of entries) {
          const res = await fetch(`${base}${entry.path}`, { method: entry.method, headers: entry.headers, body: entry.body });
          observed.push({
            status: res.status,
            contentType: res.headers.get('content-type') ?? undefined,
            allow: res.headers.get('allow') ?? undefined,
            preferenceApplied: res.headers.get('preference-applied') ?? undefined,
            body: await res.text(),
          });
        }
        return observed;
      },
      { entries: requests, base: pageOptions.baseUrl },
    );
    built = await page.evaluate(() => {
      const factory = (globalThis as unknown as { evalkitBuild: typeof build }).evalkitBuild;
      const evaluation = factory('Evaluation', { seed: 3, state: 'EVALUATION_FAILED', overrides: { app_id: 'my-app' } });
      try {
        factory('HumanEvaluation', { overrides: { created_at: 'yesterday' } });
        return { evaluation, error: '' };
      } catch (error) {
        return { evaluation, error: (error as Error).message };
      }
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('answers GET and POST from the page with bodies valid against the schemas', () => {
    for (const [index, answer] of answers.slice(0, 5).entries()) {
      expect(answer.status, requests[index]?.name).toBe(200);
      expectValid('HumanEvaluation', JSON.parse(answer.body));
    }
    expect(JSON.parse(answers[4]?.body ?? '{}').status).toBe('EVALUATION_FAILED');
    expect(answers[5]?.status).toBe(200);
    expect(expectEvaluations(JSON.parse(answers[5]?.body ?? 'null'))).toHaveLength(2);
    expect(answers[6]?.status).toBe(422);
  });

  it('is deterministic: the same id twice gives the same bytes, another id another record', () => {
    expect(answers[3]?.body).toBe(answers[2]?.body);
    expect(answers[1]?.body).not.toBe(answers[0]?.body);
  });

  it('builds the same factory instances in the page as in Node, and names the broken rule there too', () => {
    expect(built?.evaluation).toEqual(build('Evaluation', { seed: 3, state: 'EVALUATION_FAILED', overrides: { app_id: 'my-app' } }));
    expect(built?.error).toMatch(/\/created_at must be an RFC 3339 date-time.*\(rule: format\)/);
  });

  it('answers exactly what the Node mock (Express) answers for the same options and requests', async () => {
    const { baseUrl, ...options } = pageOptions;
    const app = createMockApp({ ...options, basePath: baseUrl });
    for (const [index, entry] of requests.entries()) expect(answers[index], entry.name).toEqual(await observeExpress(app, baseUrl, entry));
  });
});
