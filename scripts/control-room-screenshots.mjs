// docs/images/control-room-{1440,800}.png: the control room after six polls of a run under `progress`, a 422, a
// pass-through the origin answered, one the mock answered in its stead (the origin hung up) and a refused Apply, at
// 1440 and 800 px, for a person to look at (`npm run screenshots`, with Debian's chromium-headless-shell; its
// pngquant, when installed, keeps each file under 150 KB). The browser tests take the same widths into
// reports/screenshots/.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { chromium } = createRequire(import.meta.url)('playwright-core');
const pngquant = '/usr/bin/pngquant';

// The origin behind --passthrough: a small JSON answer, and a dropped connection for /api/broken (the mock's 502).
const backend = createServer((req, res) =>
  req.url === '/api/broken'
    ? req.socket.destroy()
    : res.writeHead(200, { 'content-type': 'application/json' }).end('{"projects": []}'),
);
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
  // A UI polling every second under progress=2000: each poll at its own pinned moment, so nobody waits on the clock.
  for (let second = 0; second < 6; second++) {
    const now = `2031-01-01T00:00:0${second}Z`;
    await fetch(`${api}/human-evaluations/6637c0a25368ef07b03a64cd`, {
      headers: { Prefer: `progress=2000, now=${now}` },
    });
  }
  await fetch(`${api}/evaluations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  await fetch(`${api}/api/broken`);
  await fetch(`${api}/api/projects`);
  await fetch(`${api}/human-evaluations/a-rather-long-identifier-from-a-real-deployment-0192f0c4-7b6e-7c5d`);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium-headless-shell', args: ['--no-sandbox'] });
  for (const width of [1440, 800]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(`${api}/__evalkit/`);
    await page.locator('#request-rows tr').nth(9).waitFor();
    await page.locator('#request-rows tr', { hasText: '/api/projects' }).click();
    await page.fill('#fetchHumanEvaluation-latency', 'soon');
    await page.click('#fetchHumanEvaluation-apply');
    await page.locator('#fetchHumanEvaluation-apply-status', { hasText: 'Refused' }).waitFor();
    await page.evaluate('window.scrollTo(0, 0)');
    const path = `${root}docs/images/control-room-${width}.png`;
    // Narrow, the refused Apply is below the selected entry: the whole page, so both show.
    await page.screenshot({ path, fullPage: width === 800 });
    if (existsSync(pngquant)) execFileSync(pngquant, ['--force', '--skip-if-larger', '--output', path, '64', path]);
    else console.warn(`no ${pngquant} (Debian's pngquant package): ${path} is left as Chromium wrote it`);
    await page.close();
  }
  await browser.close();
} finally {
  mock.kill('SIGKILL');
  backend.close();
}
