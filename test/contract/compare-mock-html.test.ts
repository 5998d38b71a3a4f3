import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, noChromium } from '../browser/chromium.js';
import { runCli } from '../helpers/cli.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import { releaseCreateBody, releaseIds, releases, startRelease } from './release-deployments.js';

if (!hasChromium) process.stderr.write(`compare-mock-html.test.ts skipped: ${noChromium}\n`);

const dir = tempDir('evalkit-compare-html-');
afterAll(removeTempDirs);

describe.skipIf(!hasChromium)('the --compare-mock section of the HTML report in headless Chromium', () => {
  it('shows each difference with both answers and the closest mock, its command copyable; a screenshot', async () => {
    const release = releases['0.17'];
    const body = join(dir, 'body.json');
    writeFileSync(body, JSON.stringify(releaseCreateBody(release.idStyle)));
    const file = join(dir, 'report.html');
    const server = await startRelease(release);
    try {
      const id = releaseIds[release.idStyle].record;
      const args = ['--create-body', body, '--human-evaluation-id', id, '--compare-mock', '--report-html', file];
      const run = await runCli(['contract', '--base-url', server.url, ...args]);
      expect(run.code).toBe(1);
    } finally {
      await server.close();
    }
    expect(readFileSync(file, 'utf8')).toContain('<section id="mock">');
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const page = await context.newPage();
      await page.goto(pathToFileURL(file).href);
      const section = page.locator('section#mock');
      await section.scrollIntoViewIfNeeded();
      expect(await section.isVisible()).toBe(true);
      expect(await section.locator('h2').textContent()).toMatch(/^Compared with the mock: \d+ differences$/);
      const rows = section.locator('table').first().locator('tr');
      expect(await rows.count()).toBeGreaterThan(3);
      expect(await section.textContent()).toContain('EVALUATION_STARTED');
      const command = section.locator('#copy-mock-command');
      expect(await command.textContent()).toBe('evalkit mock --era 0.17 --era-dates --nullable');
      const copy = section.locator('button[data-copy="copy-mock-command"]');
      expect(await copy.textContent()).toBe('Copy command');
      await copy.click();
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(
        'evalkit mock --era 0.17 --era-dates --nullable',
      );
      const shot = join(dir, 'compare-mock.png');
      await section.screenshot({ path: shot });
      expect(existsSync(shot) && statSync(shot).size).toBeGreaterThan(10_000);
      if (process.env.EVALKIT_KEEP_SCREENSHOT) writeFileSync(process.env.EVALKIT_KEEP_SCREENSHOT, readFileSync(shot));
    } finally {
      await browser.close();
    }
  });
});
