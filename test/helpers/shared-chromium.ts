import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { chromiumArgs, executablePath } from '../browser/chromium-launch.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The one Chromium of the run (`launchChromium` connects to it), or '' without Chromium. */
    chromiumEndpoint: string;
  }
}

/**
 * The processes tier's global setup: one headless Chromium for every file that drives one, started once and closed
 * after the run. Each test connects (test/browser/chromium.ts: `launchChromium`) and gets contexts of its own, so a
 * file pays for a connection, not a browser's start.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!existsSync(executablePath)) {
    project.provide('chromiumEndpoint', '');
    return undefined;
  }
  const server = await chromium.launchServer({ executablePath, args: chromiumArgs });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
