import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium, noChromium } from '../browser/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningCli } from '../helpers/cli.js';
import { startMockCli } from './control-helpers.js';
import { secret } from './helpers.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';

const root = new URL('../../', import.meta.url).pathname;
if (!hasChromium) console.warn(`control-dashboard.test.ts: skipped, ${noChromium}`);

const children: RunningCli[] = [];
let browser: Browser | undefined;
/** The file's one tab, each test loading its dashboard in it: a tab costs Chromium more than a test's checks. */
let tab: Page;
let url = '';
let dashboard = '';

beforeAll(async () => {
  if (!hasChromium) return;
  if (!existsSync(join(root, 'dist/mock/index.js')))
    throw new Error('dist/ has no mock: run `npm run build` before these tests');
  // The mock as users start it (in this process), reading the URLs it prints.
  const started = await startMockCli();
  children.push(started.mock);
  ({ api: url, room: dashboard } = started);
  browser = await launchChromium();
  tab = await browser.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  for (const child of children) child.kill();
  removeTempDirs();
});

describe.skipIf(!hasChromium)('the control room dashboard in headless Chromium', () => {
  it('shows a request made from outside, switches GET to 500 with its controls, the next GET gets 500', async () => {
    const page = tab;
    const pageErrors: string[] = [];
    const onError = (error: Error) => pageErrors.push(error.message);
    // Script errors and CSP refusals; the browser's own note on the expected 422 below is not one.
    const onConsole = (message: { type(): string; text(): string }) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        pageErrors.push(message.text());
    };
    page.on('pageerror', onError);
    page.on('console', onConsole);
    await page.goto(dashboard);
    await page.locator('#live', { hasText: 'live' }).waitFor();

    // A request from outside the browser, carrying a credential and markup that must stay text.
    const markup = '<img src=x onerror="window.injected=1">';
    const outside = await fetch(`${url}/human-evaluations/from-outside`, {
      headers: { Authorization: `Bearer ${secret}`, 'X-Note': markup },
    });
    expect(outside.status).toBe(200);
    const row = page.locator('#request-rows tr', { hasText: '/human-evaluations/from-outside' });
    await row.waitFor();
    await expect(row.locator('td').nth(3).textContent()).resolves.toBe('200');
    await row.click();
    await page.locator('#details pre', { hasText: 'authorization' }).first().waitFor();
    expect(await page.locator('#details img').count()).toBe(0);
    expect(await page.evaluate('typeof window.injected')).toBe('undefined');
    const details = (await page.locator('#details').textContent()) ?? '';
    expect(details).toContain('<AUTHORIZATION>');
    expect(details).toContain(markup);
    expect(details).toContain('curl -sS -i -X GET');
    expect(await page.content()).not.toContain(secret);

    // A 422 shows its problems.
    await fetch(`${url}/evaluations`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"app_id": 1}',
    });
    await page.locator('#request-rows tr', { hasText: '422' }).click();
    await page.locator('#problems', { hasText: 'app_id' }).waitFor();
    expect(await page.locator('#problems').textContent()).toContain('Input should be a valid string');

    // Switch GET to 500 with the controls.
    await page.selectOption('#fetchHumanEvaluation-code', '500');
    await page.click('#fetchHumanEvaluation-apply');
    await page.locator('#fetchHumanEvaluation-apply-status', { hasText: 'Scenario in force' }).waitFor();
    const next = await fetch(`${url}/human-evaluations/after-switch`);
    expect(next.status).toBe(500);
    await page
      .locator('#request-rows tr', { hasText: '/human-evaluations/after-switch' })
      .locator('td', { hasText: '500' })
      .waitFor();

    // A bad value is refused with the mock's reason, and the 500 stays in force.
    await page.fill('#fetchHumanEvaluation-latency', 'soon');
    await page.click('#fetchHumanEvaluation-apply');
    await page
      .locator('#fetchHumanEvaluation-apply-status', { hasText: "scenario key 'latency' accepts MS or MIN-MAX" })
      .waitFor();
    expect((await fetch(`${url}/human-evaluations/still`)).status).toBe(500);
    page.off('pageerror', onError);
    page.off('console', onConsole);
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('shows a broken fixture file and keeps serving the previous set', async () => {
    const dir = tempDir('evalkit-dashboard-fixtures-');
    cpSync(join(root, 'fixtures/mock'), dir, { recursive: true });
    // With --quiet the request log is off, but a refused reload is still reported on stderr.
    const { mock, api, room } = await startMockCli(['--quiet', '--fixtures', dir]);
    children.push(mock);
    const page = tab;
    await page.goto(room);
    await page.locator('#fixtures', { hasText: '3 fixture(s)' }).waitFor();
    writeFileSync(join(dir, 'human-evaluations', '6637c0a25368ef07b03a64cd.json'), '{"id": "6637c0a25368ef07b03a64cd"');
    await page.locator('#fixtures li', { hasText: '6637c0a25368ef07b03a64cd.json: not valid JSON' }).waitFor();
    expect(await page.locator('#fixtures').textContent()).toContain('still serving the previous set');
    expect((await fetch(`${api}/human-evaluations/6637c0a25368ef07b03a64cd`)).status).toBe(200);
    expect(mock.stderr()).toContain('reload refused, still serving the previous 3 fixture(s)');
  }, 120_000);
});
