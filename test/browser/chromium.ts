import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { inject } from 'vitest';
import type { CorpusRequest } from '../msw/corpus.js';
import { chromiumPaths, executablePath, playwrightChromium } from './chromium-launch.js';
import { tempDir } from '../helpers/temp-dirs.js';
import type { Observed } from '../msw/observe.js';

export const hasChromium = executablePath !== undefined;
export const noChromium =
  `no Chromium at ${chromiumPaths.join(' or ')} ` + "(.ci/run installs Debian's chromium-headless-shell package)";
const root = fileURLToPath(new URL('../../', import.meta.url));

/** `msw init` is a process: its script, once per msw and Node. */
const workerScripts = new Map<string, Uint8Array>();

/**
 * The worker script as an app gets it: `msw init` run in an app folder (it wants a package.json there), from this
 * repository's msw or from the msw an app installed (`mswPackage`, its folder in node_modules, run by `node`).
 */
export function mswInit(mswPackage = join(root, 'node_modules/msw'), node = process.execPath): Uint8Array {
  const key = `${node}\0${mswPackage}`;
  const known = workerScripts.get(key);
  if (known) return known;
  // The folder goes as soon as the script is read: what is cached is its bytes, so no file meets a removed path.
  const dir = tempDir('evalkit-browser-');
  try {
    writeFileSync(join(dir, 'package.json'), '{}');
    execFileSync(node, [join(mswPackage, 'cli/index.js'), 'init', dir, '--no-save'], {
      cwd: dir,
      stdio: 'ignore',
    });
    const script = readFileSync(join(dir, 'mockServiceWorker.js'));
    workerScripts.set(key, script);
    return script;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The run's one headless Chromium (test/helpers/shared-chromium.ts starts it for the first to ask), connected to: each
 * caller gets a connection of its own, and closing it closes the pages it opened, not the browser.
 */
export async function launchChromium(): Promise<Browser> {
  if (!hasChromium) throw new Error(noChromium);
  const answer = await fetch(inject('chromiumBroker'));
  const text = await answer.text();
  if (!answer.ok) throw new Error(text);
  return playwrightChromium().connect(text);
}

export interface PageSession {
  page: Page;
  /** Uncaught errors of the page. */
  errors: string[];
  /** Every console message of the page, Chromium's own (a refused script, a Content-Security-Policy report) too. */
  messages: string[];
  /**
   * Resolves once the page has logged a console message matching `pattern` (before the call or after it); rejects
   * with the page's first uncaught error, if one comes first: a page that failed to start never logs it.
   */
  logged(pattern: RegExp): Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves a page running `bundle` (an ES module) beside MSW's worker script (the bundle's msw's: `workerScript`) on
 * 127.0.0.1 (a secure context, as service workers need), and opens it in headless Chromium. `headers` go with every
 * file served: a Content-Security-Policy, as an app's server sends one.
 */
export async function openPage(
  bundle: Uint8Array,
  workerScript: Uint8Array = mswInit(),
  headers: Record<string, string> = {},
): Promise<PageSession> {
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
    res.writeHead(file ? 200 : 404, { ...headers, 'Content-Type': file ? file[0] : 'text/plain' });
    res.end(file ? file[1] : 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await launchChromium();
  const page = await browser.newPage();
  const errors: string[] = [];
  const waiting = new Set<{ pattern: RegExp; resolve: () => void; reject: (error: Error) => void }>();
  page.on('pageerror', (error) => {
    errors.push(error.message);
    for (const waiter of waiting)
      (waiting.delete(waiter), waiter.reject(new Error(`the page failed: ${error.message}`)));
  });
  const messages: string[] = [];
  page.on('console', (message) => {
    messages.push(message.text());
    for (const waiter of waiting) if (waiter.pattern.test(message.text())) (waiting.delete(waiter), waiter.resolve());
  });
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  return {
    page,
    errors,
    messages,
    logged: (pattern) =>
      messages.some((text) => pattern.test(text))
        ? Promise.resolve()
        : errors.length > 0
          ? Promise.reject(new Error(`the page failed: ${errors[0]}`))
          : new Promise((resolve, reject) => waiting.add({ pattern, resolve, reject })),
    close: async () => {
      await browser.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The page's fetch of each request in turn, under `base`, as the parity tests compare answers: built in the page (its
 * function cannot call this module's code) from what its `fetch` got.
 */
export function fetchInPage(page: Page, base: string, entries: CorpusRequest[]): Promise<Observed[]> {
  return page.evaluate(
    async ({ requests, prefix }) => {
      const observed = [];
      for (const entry of requests) {
        const res = await fetch(`${prefix}${entry.path}`, {
          method: entry.method,
          headers: entry.headers,
          body: entry.body,
        });
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
    { requests: entries, prefix: base },
  );
}
