import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium: no browser download works here; .ci/run installs the package. */
const executablePath = '/usr/bin/chromium';
export const hasChromium = existsSync(executablePath);
export const noChromium = `no Chromium at ${executablePath} (.ci/run installs Debian's chromium package)`;
const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The worker script as an app gets it: `msw init` run in an app folder (it wants a package.json there), from this
 * repository's msw or from the msw an app installed (`mswPackage`, its folder in node_modules, run by `node`).
 */
export function mswInit(mswPackage = join(root, 'node_modules/msw'), node = process.execPath): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'evalkit-browser-'));
  writeFileSync(join(dir, 'package.json'), '{}');
  execFileSync(node, [join(mswPackage, 'cli/index.js'), 'init', dir, '--no-save'], {
    cwd: dir,
    stdio: 'ignore',
  });
  return readFileSync(join(dir, 'mockServiceWorker.js'));
}

/** Headless Debian Chromium, without the background traffic a test does not need. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface PageSession {
  page: Page;
  /** Uncaught errors of the page. */
  errors: string[];
  /** Resolves once the page has logged a console message matching `pattern` (before the call or after it). */
  logged(pattern: RegExp): Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves a page running `bundle` (an ES module) beside MSW's worker script (the bundle's msw's: `workerScript`) on
 * 127.0.0.1 (a secure context, as service workers need), and opens it in headless Chromium.
 */
export async function openPage(bundle: Uint8Array, workerScript: Uint8Array = mswInit()): Promise<PageSession> {
  const files: Record<string, [string, Uint8Array | string]> = {
    '/': [
      'text/html',
      '<!doctype html><meta charset="utf-8"><title>evalkit</title><script type="module" src="/page.js"></script>',
    ],
    '/page.js': ['text/javascript', bundle],
    '/mockServiceWorker.js': ['text/javascript', workerScript],
  };
  const server: Server = createServer((req, res) => {
    const file = files[req.url ?? ''];
    res.writeHead(file ? 200 : 404, { 'Content-Type': file ? file[0] : 'text/plain' });
    res.end(file ? file[1] : 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await launchChromium();
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const messages: string[] = [];
  const waiting = new Set<{ pattern: RegExp; resolve: () => void }>();
  page.on('console', (message) => {
    messages.push(message.text());
    for (const waiter of waiting) if (waiter.pattern.test(message.text())) (waiting.delete(waiter), waiter.resolve());
  });
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  return {
    page,
    errors,
    logged: (pattern) =>
      messages.some((text) => pattern.test(text))
        ? Promise.resolve()
        : new Promise((resolve) => waiting.add({ pattern, resolve })),
    close: async () => {
      await browser.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
