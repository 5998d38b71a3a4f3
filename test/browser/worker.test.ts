import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForBrowser } from '../../bench/browser-bundle.js';
import { build } from '../../generators/factories.js';
import { createMockApp } from '../../mock/index.js';
import { createRequest } from '../mock/helpers.js';
import { expectEvaluations, expectValid } from '../mock/helpers.js';
import type { CorpusRequest } from '../msw/corpus.js';
import { observeExpress, type Observed } from '../msw/observe.js';
import { fetchInPage, hasChromium, noChromium, openPage, type PageSession } from './chromium.js';
import { pageOptions } from './page-options.js';

if (!hasChromium) console.warn(`browser test skipped: ${noChromium}`);

const requests: CorpusRequest[] = [
  ...['6637c0a25368ef07b03a64cd', '0190a4c2-7b1e-7c3a-9f00-1a2b3c4d5e6f', 'browser-1', 'browser-1'].map((id) => ({
    name: `GET ${id}`,
    method: 'GET',
    path: `/human-evaluations/${id}`,
  })),
  { name: 'GET failed', method: 'GET', path: '/human-evaluations/browser-2', headers: { Prefer: 'state=failed' } },
  {
    name: 'POST valid',
    method: 'POST',
    path: '/evaluations',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(createRequest()),
  },
  {
    name: 'POST invalid',
    method: 'POST',
    path: '/evaluations',
    headers: { 'Content-Type': 'application/json' },
    body: '{"app_id": 1}',
  },
];

describe.skipIf(!hasChromium)('evalkit/msw in headless Chromium (service worker from msw init)', () => {
  let session: PageSession | undefined;
  let answers: Observed[] = [];
  let built: { evaluation: unknown; error: string } | undefined;

  beforeAll(async () => {
    const { code } = await bundleForBrowser(fileURLToPath(new URL('./page.ts', import.meta.url)));
    session = await openPage(code);
    const page = session.page;
    await page.waitForFunction(() => (globalThis as { evalkitReady?: unknown }).evalkitReady !== undefined);
    await page.evaluate(() => (globalThis as { evalkitReady?: Promise<unknown> }).evalkitReady);
    expect(session.errors).toEqual([]);
    answers = await fetchInPage(page, pageOptions.baseUrl, requests);
    built = await page.evaluate(() => {
      const factory = (globalThis as unknown as { evalkitBuild: typeof build }).evalkitBuild;
      const evaluation = factory('Evaluation', {
        seed: 3,
        state: 'EVALUATION_FAILED',
        overrides: { app_id: 'my-app' },
      });
      try {
        factory('HumanEvaluation', { overrides: { created_at: 'yesterday' } });
        return { evaluation, error: '' };
      } catch (error) {
        return { evaluation, error: (error as Error).message };
      }
    });
  }, 120_000);

  afterAll(() => session?.close());

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
    expect(built?.evaluation).toEqual(
      build('Evaluation', { seed: 3, state: 'EVALUATION_FAILED', overrides: { app_id: 'my-app' } }),
    );
    expect(built?.error).toMatch(/\/created_at must be an RFC 3339 date-time.*\(rule: format\)/);
  });

  it('answers exactly what the Node mock (Express) answers for the same options and requests', async () => {
    const { baseUrl, ...options } = pageOptions;
    const app = createMockApp({ ...options, basePath: baseUrl });
    for (const [index, entry] of requests.entries())
      expect(answers[index], entry.name).toEqual(await observeExpress(app, baseUrl, entry));
  });
});
