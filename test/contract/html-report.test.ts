import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium, noChromium } from '../browser/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlReport, junitReport, runContract, type Report } from '../../contract/index.js';
import { bankCreateBody, serverText } from './bank.js';
import { startConformingServer, type RunningServer } from './conforming-server.js';

if (!hasChromium) process.stderr.write(`html-report.test.ts skipped: ${noChromium}\n`);

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
  const markup =
    `<img src="${beaconUrl}/img" onerror="document.title='pwned'">` + `<script>fetch('${beaconUrl}/script')</script>`;
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

describe.skipIf(!hasChromium)(`the HTML report in headless Chromium (${hasChromium ? 'found' : noChromium})`, () => {
  let browser: Browser;
  /** One tab for the file's tests, each loading its report afresh: a tab costs Chromium more than a test's checks. */
  let page: Page;
  let report: Report;
  let file: string;
  const dir = mkdtempSync(join(tmpdir(), 'evalkit-html-'));

  beforeAll(async () => {
    await new Promise<void>((resolve) => beacon.listen(0, '127.0.0.1', resolve));
    const beaconUrl = `http://127.0.0.1:${(beacon.address() as AddressInfo).port}`;
    const server = await hostile(beaconUrl);
    try {
      report = await runContract({
        baseUrl: server.url,
        deployment: { createEvaluations: bankCreateBody },
        timeoutMs: 2_000,
      });
    } finally {
      await server.close();
    }
    file = join(dir, 'report.html');
    writeFileSync(file, htmlReport(report));
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Reading the clipboard back needs the permission a person's click grants implicitly.
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => beacon.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the verdict and the failure count, escapes server text, makes no request, saves a screenshot', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const requested: string[] = [];
    const onRequest = (request: { url(): string }) => requested.push(request.url());
    page.on('request', onRequest);
    const url = pathToFileURL(file).href;
    await page.goto(url);

    const failed = report.summary.failed;
    expect(failed).toBeGreaterThanOrEqual(3);
    expect(await page.locator('body > :first-child h1').textContent()).toMatch(/^FAIL \(\d+ errors?\)$/);
    expect(await page.locator('#verdict').getAttribute('data-failures')).toBe(String(failed));
    expect(await page.locator('#counts').textContent()).toContain(`${failed} failed`);
    expect(await page.locator('li.failed').count()).toBe(failed);
    expect(await page.locator('section h2').allTextContents()).toEqual([
      `Failed checks (${failed})`,
      'GET /human-evaluations/{evaluation_id}',
      'POST /evaluations',
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

    page.off('request', onRequest);
    expect(requested).toEqual([url]);
    expect(beaconHits).toBe(0);
  });

  it('leads with failures: a table linking to each, the failed checks, then the rest folded', async () => {
    await page.setViewportSize({ width: 1280, height: 700 });
    await page.goto(pathToFileURL(file).href);
    const failedIds = report.checks.filter((check) => check.outcome === 'failed').map((check) => check.id);
    const links = page.locator('#failures table a');
    expect(await links.allTextContents()).toEqual(failedIds);
    // The passed checks are folded: out of sight until their summary is clicked.
    const firstPassed = page.locator('li.passed').first();
    expect(await firstPassed.isVisible()).toBe(false);
    await page.click('details.rest > summary');
    expect(await firstPassed.isVisible()).toBe(true);
    const firstFailed = page.locator('li.failed').first();
    const failedTop = (await firstFailed.boundingBox())?.y ?? Infinity;
    expect(failedTop).toBeLessThan((await firstPassed.boundingBox())?.y ?? -Infinity);

    // The last failure's link brings its entry to the top of the window.
    await page.evaluate('window.scrollTo(0, 0)');
    const last = failedIds.at(-1) as string;
    const target = page.locator(`li.failed[data-check="${last}"]`);
    expect(await target.evaluate((element) => element.getBoundingClientRect().top)).toBeGreaterThan(700);
    await links.last().click();
    await expect.poll(() => page.evaluate('window.location.hash')).toBe(`#check-${last}`);
    const top = await target.evaluate((element) => element.getBoundingClientRect().top);
    expect(Math.abs(top)).toBeLessThan(2);
  });

  it('keeps server text inert in the HTML page and the JUnit file (markup, breakers, invalid, bidi)', async () => {
    const hostileText = [
      '<script>window.evalkitPwned = 1</script>',
      '<img src=x onerror="window.evalkitPwned = 2; alert(1)">',
      '</style><script>window.evalkitPwned = 3</script>',
      '"><svg onload="window.evalkitPwned = 4; alert(4)">',
      "' autofocus onfocus='window.evalkitPwned = 5",
      '</pre></li></ul><script>window.evalkitPwned = 6</script>',
      ']]><x/><![CDATA[ <!-- -->',
      '\u0001\u0008\u000b\u001f\uFFFE\uFFFF\uD800 lone',
      '\u202Egnp.exe\u202C \u2066x\u2069 zero\u200Bwidth',
    ].join(' ');
    const server = await startConformingServer({
      rewrite: serverText(hostileText, { status: 500, headers: { 'content-type': 'text/html' }, body: hostileText }),
    });
    let hostile: Report;
    try {
      hostile = await runContract({
        baseUrl: server.url,
        deployment: { createEvaluations: bankCreateBody },
        timeoutMs: 2_000,
      });
    } finally {
      await server.close();
    }
    const failed = hostile.checks.filter((check) => check.outcome === 'failed').map((check) => check.id);
    expect(failed).toEqual(expect.arrayContaining(['fetch.body.id', 'create.body.request-ids', 'create.status.5xx']));
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs++;
      void dialog.dismiss();
    });
    const hostileFile = join(dir, 'hostile.html');
    writeFileSync(hostileFile, htmlReport(hostile));
    await page.goto(pathToFileURL(hostileFile).href);
    await page.locator('li.failed').first().hover();
    expect(await page.evaluate('typeof window.evalkitPwned')).toBe('undefined');
    expect(dialogs).toBe(0);
    expect(await page.locator('img, svg, x').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(1);
    const text = await page.locator('body').innerText();
    expect(text).toContain('<script>window.evalkitPwned = 1</script>');
    // Bidi controls and zero-width characters are shown as escapes: the page reads as the server's bytes do.
    expect(text).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B-\u200F]/);
    expect(text).toContain('\\u{202E}gnp.exe');

    const junit = junitReport(hostile);
    expect(junit).not.toMatch(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u);
    expect(junit).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B-\u200F]/);
    // Chromium's XML parser is a strict XML 1.0 one: the file parses, into JUnit's elements only.
    const parsed = await page.evaluate(`(() => {
      const doc = new DOMParser().parseFromString(${JSON.stringify(junit)}, 'application/xml');
      return {
        errors: doc.getElementsByTagName('parsererror').length,
        elements: [...new Set([...doc.getElementsByTagName('*')].map((element) => element.tagName))].sort(),
      };
    })()`);
    expect(parsed).toEqual({
      errors: 0,
      elements: ['failure', 'properties', 'property', 'skipped', 'system-out', 'testcase', 'testsuite', 'testsuites'],
    });
  });
});
