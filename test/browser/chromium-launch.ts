/** Debian's Chromium: no browser download works here; .ci/run installs the package. */
export const executablePath = '/usr/bin/chromium';

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
