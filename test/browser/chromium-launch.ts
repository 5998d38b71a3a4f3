/** Debian's Chromium: no browser download works here; .ci/run installs the package. */
export const executablePath = '/usr/bin/chromium';

/** Headless, without the background traffic a test does not need. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
