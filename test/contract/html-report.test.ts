import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlReport, runContract, type Report } from '../../contract/index.js';
import { bankCreateBody } from './bank.js';
import { startConformingServer, type RunningServer } from './conforming-server.js';

const chromiumPath = '/usr/bin/chromium';
const hasChromium = existsSync(chromiumPath);
const skipReason = `skipped: no Chromium at ${chromiumPath} (install Debian's chromium package: apt-get install chromium)`;
if (!hasChromium) process.stderr.write(`html-report.test.ts ${skipReason}\n`);

/** Catches any request the page makes to a server of ours, whatever the browser reports. */
let beaconHits = 0;
const beacon = createServer((_req, res) => {
  beaconHits++;
  res.end();
});

/**
 * A deployment whose text tries to get out of the page: a record of another id whose id is markup loading the beacon, a
 * required field missing, and an HTML 500 page with a script for invalid create requests.
 */
function hostile(beaconUrl: string): Promise<RunningServer> {
  const markup = `<img src="${beaconUrl}/img" onerror="document.title='pwned'"><script>fetch('${beaconUrl}/script')</script>`;
  return startConformingServer({
    rewrite: (answer, context) => {
      if (context.route === 'fetch' && answer.status === 200) {
        const { user_username: _removed, ...record } = JSON.parse(answer.body) as Record<string, unknown>;
        return { ...answer, body: JSON.stringify({ ...record, id: markup }) };
      }
      if (context.route === 'create' && answer.status === 422)
        return { status: 500, headers: { 'content-type': 'text/html' }, body: `<html><body>${markup}</body></html>` };
      return answer;
    },
  });
}

describe.skipIf(!hasChromium)(`the HTML report in headless Chromium (${hasChromium ? 'found' : skipReason})`, () => {
  let browser: Browser;
  let report: Report;
  let file: string;
  const dir = mkdtempSync(join(tmpdir(), 'evalkit-html-'));

  beforeAll(async () => {
    await new Promise<void>((resolve) => beacon.listen(0, '127.0.0.1', resolve));
    const beaconUrl = `http://127.0.0.1:${(beacon.address() as AddressInfo).port}`;
    const server = await hostile(beaconUrl);
    try {
      report = await runContract({ baseUrl: server.url, createBody: bankCreateBody, timeoutMs: 2_000 });
    } finally {
      await server.close();
    }
    file = join(dir, 'report.html');
    writeFileSync(file, htmlReport(report));
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => beacon.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the verdict first and the failure count, escapes all server text, makes no request, and saves a screenshot', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Reading the clipboard back needs the permission a person's click grants implicitly.
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const url = pathToFileURL(file).href;
    await page.goto(url);

    const failed = report.summary.failed;
    expect(failed).toBeGreaterThanOrEqual(3);
    expect(await page.locator('body > :first-child h1').textContent()).toBe('FAIL');
    expect(await page.locator('#verdict').getAttribute('data-failures')).toBe(String(failed));
    expect(await page.locator('#counts').textContent()).toContain(`${failed} failed`);
    expect(await page.locator('li.failed').count()).toBe(failed);
    expect(await page.locator('section h2').allTextContents()).toEqual([
      'GET /human-evaluations/{evaluation_id}',
      'POST /evaluations',
    ]);

    const schema = page.locator('li.failed[data-check="fetch.body.schema"]');
    expect(await schema.textContent()).toContain('§4.1');
    expect(await schema.locator('pre').first().textContent()).toMatch(/^GET \/human-evaluations\//);
    expect(await schema.locator('pre').nth(1).textContent()).toMatch(
      /^HTTP 200\ncontent-type: application\/json\n\n\{/,
    );
    expect(await page.locator('li.skipped').first().textContent()).toContain('skipped: ');

    // The markup arrived as text: no element, no script run, nothing loaded.
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(1);
    expect(await page.locator('li.failed[data-check="fetch.body.id"]').textContent()).toContain('<img src=');
    expect(await page.title()).not.toBe('pwned');

    const copy = page.locator('li.failed[data-check="fetch.body.schema"] button[data-copy]');
    await copy.click();
    await expect.poll(() => copy.textContent()).toBe('Copied');
    const reproduce = report.checks.find((check) => check.id === 'fetch.body.schema')?.reproduce;
    expect(reproduce).toMatch(/^curl /);
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(reproduce);

    mkdirSync(new URL('../../reports/', import.meta.url), { recursive: true });
    const shot = new URL('../../reports/contract-report.png', import.meta.url);
    await page.screenshot({ path: shot.pathname, fullPage: true });
    expect(existsSync(shot)).toBe(true);

    expect(requested).toEqual([url]);
    expect(beaconHits).toBe(0);
    await context.close();
  });
});
