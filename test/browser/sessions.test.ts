import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../mock/index.js';
import { hasChromium, launchChromium, noChromium } from './chromium.js';

/**
 * Parallel end-to-end runs share one mock, each Playwright worker in a browser context of its own: the session rides
 * on the context as Playwright sets it, a cookie (`context.addCookies`) or a header on every request
 * (`extraHTTPHeaders`), and the app's own fetches carry it unchanged.
 */
let mock: MockServer | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  if (!hasChromium) return;
  mock = await startMockServer({ port: 0, scenario: { code: 503 } });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await mock?.close();
});

/** A context of the session `name`, by cookie or by header, on a page of the mock's origin. */
async function contextOf(name: string, by: 'cookie' | 'header'): Promise<BrowserContext> {
  const url = (mock as MockServer).url;
  const context = await (browser as Browser).newContext(
    by === 'header' ? { extraHTTPHeaders: { 'X-Evalkit-Session': name } } : {},
  );
  if (by === 'cookie') await context.addCookies([{ name: 'evalkit-session', value: name, url }]);
  return context;
}

describe.skipIf(!hasChromium)(`sessions from Playwright contexts${hasChromium ? '' : ` (${noChromium})`}`, () => {
  it('each context answered by its own session scenario, all at once, none by the server', async () => {
    const url = (mock as MockServer).url;
    const sessions = [
      { name: 'worker-1', by: 'cookie', scenario: { code: 404 } },
      { name: 'worker-2', by: 'header', scenario: { state: 'failed' } },
      { name: 'worker-3', by: 'cookie', scenario: { state: 'started', latency: '5' } },
      { name: 'worker-4', by: 'header', scenario: { code: 401 } },
    ] as const;
    for (const { name, scenario } of sessions) {
      const set = await fetch(`${url}/__evalkit/sessions/${name}/scenario`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ scenario: { code: 200, ...scenario } }),
      });
      expect(set.status).toBe(200);
    }
    const seen = await Promise.all(
      sessions.map(async ({ name, by }) => {
        const context = await contextOf(name, by);
        try {
          const page = await context.newPage();
          // The page is the mock's origin: the app's fetches are same-origin, as a dev server's proxy makes them.
          await page.goto(`${url}/__evalkit/openapi.json`);
          return (await page.evaluate(async () => {
            const answers: string[] = [];
            for (let index = 0; index < 20; index++) {
              const response = await fetch(`/human-evaluations/run-${index % 3}`);
              const body = (await response.json()) as { status?: string; detail?: string };
              answers.push(`${response.status} ${body.status ?? ''}`);
            }
            return answers;
          })) as string[];
        } finally {
          await context.close();
        }
      }),
    );
    expect(seen.map((answers) => [...new Set(answers)])).toEqual([
      ['404 '],
      ['200 EVALUATION_FAILED'],
      ['200 EVALUATION_STARTED'],
      ['401 '],
    ]);
  }, 60_000);

  it("the control room lists one session's requests, or the server's, by its session filter", async () => {
    const url = (mock as MockServer).url;
    await fetch(`${url}/__evalkit/requests`, { method: 'DELETE' });
    await fetch(`${url}/__sessions/filtered/human-evaluations/one`);
    await fetch(`${url}/human-evaluations/two`, { headers: { 'X-Evalkit-Session': 'other' } });
    await fetch(`${url}/human-evaluations/three`);
    const page = await (browser as Browser).newPage();
    try {
      await page.goto(`${url}/__evalkit/`);
      await page.locator('#live', { hasText: 'live' }).waitFor();
      await page.locator('#request-rows tr').nth(2).waitFor({ state: 'attached' });
      const paths = () => page.locator('#request-rows tr:not([hidden]) td.path').allTextContents();
      await page.selectOption('#filter-session', 'filtered');
      expect(await paths()).toEqual(['/human-evaluations/one']);
      await page.selectOption('#filter-session', '-');
      expect(await paths()).toEqual(['/human-evaluations/three']);
      await page.selectOption('#filter-session', '');
      expect(await paths()).toHaveLength(3);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('the control room lists each session with its rules, and clears them with one button', async () => {
    const url = (mock as MockServer).url;
    const page = await (browser as Browser).newPage();
    try {
      await page.goto(`${url}/__evalkit/`);
      await page.locator('#live', { hasText: 'live' }).waitFor();
      await fetch(`${url}/__evalkit/sessions/panel-1/scenario`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ scenario: { state: 'failed' }, humanEvaluations: { gone: { code: 404 } } }),
      });
      const item = page.locator('#sessions li[data-session="panel-1"]');
      await item.waitFor();
      const rules = /^panel-1 state=EVALUATION_FAILED; gone: code=404 \(used \d\d:\d\d:\d\d UTC\)/;
      expect(await item.textContent()).toMatch(rules);
      await item.getByRole('button', { name: 'Clear its rules' }).click();
      await page.locator('#sessions li[data-session="panel-1"]', { hasText: 'the server scenario' }).waitFor();
      const left = await fetch(`${url}/__evalkit/sessions/panel-1/scenario`);
      expect(await left.json()).toEqual({ scenario: {}, operations: {}, humanEvaluations: {} });
    } finally {
      await page.close();
    }
  }, 60_000);
});
