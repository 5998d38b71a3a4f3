import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { chromiumArgs, executablePath, playwrightChromium } from '../browser/chromium-launch.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Answers the wsEndpoint of the run's one Chromium, started by the first to ask (`launchChromium`). */
    chromiumBroker: string;
  }
}

/**
 * The global setup: one headless Chromium for every file that drives one, started when the first of them asks (a run
 * without browser tests starts none) and closed after the run. Each file connects (test/browser/chromium.ts:
 * `launchChromium`) and opens contexts of its own, so it pays for a connection, not for a browser's start.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let launched: Promise<BrowserServer> | undefined;
  const broker = createServer((_req, res) => {
    launched ??= playwrightChromium().launchServer({ executablePath, args: chromiumArgs });
    launched.then(
      (browser) => res.end(browser.wsEndpoint()),
      (error: Error) => res.writeHead(500).end(`Chromium did not start: ${error.message}`),
    );
  });
  await new Promise<void>((resolve) => broker.listen(0, '127.0.0.1', resolve));
  project.provide('chromiumBroker', `http://127.0.0.1:${(broker.address() as AddressInfo).port}/`);
  return async () => {
    broker.close();
    await launched?.then((browser) => browser.close()).catch(() => undefined);
  };
}
