import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserType } from 'playwright-core';

/**
 * Playwright's Chromium driver, loaded when first asked for, by `require`: its ES module entry costs a process twice
 * the CPU (measured: 0.6 s against 0.3 s), and a file that only imports a helper of test/browser loads none.
 */
export function playwrightChromium(): BrowserType {
  return (createRequire(import.meta.url)('playwright-core') as typeof import('playwright-core')).chromium;
}

/**
 * Debian's Chromium (no browser download works here; .ci/run installs the packages): its headless shell when installed
 * (package chromium-headless-shell, the same version's engine without the desktop browser around it, and the build
 * Playwright itself runs headless tests in), else the browser. The shell runs the browser tests for a third of the
 * CPU (measured on the 23 browser tests: 7-8 s of Chromium's CPU against 23, 12-14 s of wall against 19).
 */
export const chromiumPaths = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];
export const executablePath = chromiumPaths.find((path) => existsSync(path));

/**
 * Headless, without the background traffic a test does not need. The GPU's part (software compositing here) runs as
 * a thread of the browser, not a process of its own: the frames it composes no longer cross processes (measured on
 * the browser tests: 20-25 s of Chromium's CPU against 27-30).
 */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--in-process-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
