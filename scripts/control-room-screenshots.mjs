// docs/images/control-room-{1440,800}.png: the control room after a polling session, a 422, a pass-through and a
// refused Apply, at 1440 and 800 px, for a person to look at (`npm run screenshots`,
// with Debian's chromium-headless-shell). The browser tests take the same widths into reports/screenshots/.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { chromium } = createRequire(import.meta.url)('playwright-core');
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const backend = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
await new Promise((resolve) => backend.listen(0, '127.0.0.1', resolve));
const passthrough = `http://127.0.0.1:${backend.address().port}`;
const mock = spawn(process.execPath, ['bin/evalkit.js', 'mock', '--port', '0', '--passthrough', passthrough], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'ignore'],
});
const api = await new Promise((resolve) =>
  mock.stdout.on('data', (chunk) => {
    const found = /listening on (http:\/\/\S+)/.exec(String(chunk));
    if (found) resolve(found[1]);
  }),
);
try {
  for (let poll = 0; poll < 6; poll++) {
    await fetch(`${api}/human-evaluations/6637c0a25368ef07b03a64cd`, { headers: { Prefer: 'progress=300' } });
    await wait(160);
  }
  await fetch(`${api}/evaluations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  await fetch(`${api}/api/projects`);
  await fetch(`${api}/human-evaluations/a-rather-long-identifier-from-a-real-deployment-0192f0c4-7b6e-7c5d`);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium-headless-shell', args: ['--no-sandbox'] });
  for (const width of [1440, 800]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(`${api}/__evalkit/`);
    await page.locator('#request-rows tr').nth(8).waitFor();
    await page.locator('#request-rows tr', { hasText: '/api/projects' }).click();
    await page.fill('#fetchHumanEvaluation-latency', 'soon');
    await page.click('#fetchHumanEvaluation-apply');
    await page.locator('#fetchHumanEvaluation-apply-status', { hasText: 'Refused' }).waitFor();
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: `${root}docs/images/control-room-${width}.png`, fullPage: width === 800 });
    await page.close();
  }
  await browser.close();
} finally {
  mock.kill('SIGKILL');
  backend.close();
}
