import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleForBrowser } from '../../bench/browser-bundle.js';
import { fetchInPage, openPage, type PageSession } from '../browser/chromium.js';
import { projectRoot } from '../helpers/cli.js';
import type { Observed } from '../msw/observe.js';

/** The text of the first ```LANG block of a README section (`## heading`). */
export function readmeBlock(heading: string, lang: 'ts' | 'sh'): string {
  const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
  const section = readme.indexOf(`\n## ${heading}\n`);
  if (section < 0) throw new Error(`README has no section '## ${heading}'`);
  const fence = `\`\`\`${lang}\n`;
  const start = readme.indexOf(fence, section);
  const next = readme.indexOf('\n## ', section + 1);
  if (start < 0 || (next >= 0 && start > next)) throw new Error(`README section '## ${heading}' has no ${fence}`);
  return readme.slice(start + fence.length, readme.indexOf('\n```', start));
}

/**
 * The first ```ts block of a README section, written as it is to DIR/NAME.ts and that path returned. DIR defaults to
 * reports/readme, inside the package, so its `evalkit/...` imports resolve to the built package by self-reference; an
 * installed consumer project's folder makes them resolve to the installed package.
 */
export function readmeSnippet(heading: string, name: string, dir = join(projectRoot, 'reports/readme')): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.ts`);
  writeFileSync(file, `${readmeBlock(heading, 'ts')}\n`);
  return file;
}

export interface BrowserSnippetRun {
  session: PageSession;
  /** The page's fetch of `url` once the snippet's worker controls it. */
  answer: Observed;
}

/**
 * The README's browser snippet in headless Chromium: bundled (esbuild, resolving from where `file` lies), served
 * beside `workerScript` (the worker of the msw it was bundled with) with `headers` (a Content-Security-Policy),
 * started as written; then the page fetches `url`. The caller closes the session.
 */
export async function runBrowserSnippet(
  file: string,
  url: string,
  workerScript?: Uint8Array,
  headers?: Record<string, string>,
): Promise<BrowserSnippetRun> {
  const { code } = await bundleForBrowser(file);
  const session = await openPage(code, workerScript, headers);
  // The snippet awaits worker.start(), which logs this once MSW mocks the page: a worker that merely controls the
  // page may not have been told to mock yet, and a fetch then reaches the static server (a 404).
  await session.logged(/\[MSW\] Mocking enabled/);
  const [answer] = await fetchInPage(session.page, '', [{ name: url, method: 'GET', path: url }]);
  return { session, answer: answer as Observed };
}
