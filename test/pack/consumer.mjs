// An app's test in an empty project that installed the evalkit tarball and msw: msw/node with evalkit/msw handlers
// must answer as `evalkit mock` does for the same seed and ids. Prints one line per request; exits 1 on a difference.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { setupServer } from 'msw/node';
import { createHandlers } from 'evalkit/msw';
import { validate } from 'evalkit/validators';

const seed = '42';
// Pinned, since created Evaluations carry the request's moment.
const now = '2026-01-02T03:04:05Z';
const origin = 'http://evaluation-service.test';
const bin = createRequire(import.meta.url)
  .resolve('evalkit/package.json')
  .replace(/package\.json$/, 'bin/evalkit.js');
const mock = spawn(process.execPath, [bin, 'mock', '--port', '0', '--seed', seed, '--now', now, '--quiet'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const mockUrl = await new Promise((resolve, reject) => {
  mock.stdout.on('data', (data) => {
    const match = /listening on (\S+)/.exec(String(data));
    if (match) resolve(match[1]);
  });
  mock.on('exit', (code) => reject(new Error(`evalkit mock exited ${code}`)));
});

const server = setupServer(...createHandlers({ baseUrl: origin, seed, now }));
// The requests to `evalkit mock` pass by: msw 3 names the option onUnhandledFrame, msw 2 onUnhandledRequest.
server.listen({ onUnhandledFrame: 'bypass', onUnhandledRequest: 'bypass' });
const body = JSON.stringify({
  app_id: 'app-1',
  variant_ids: ['variant-a', 'variant-b'],
  evaluators_configs: ['config-1', 'config-2'],
  testset_id: 'testset-1',
  rate_limit: { batch_size: 10, max_retries: 3, retry_delay: 3, delay_between_batches: 5 },
  lm_providers_keys: { OPENAI_API_KEY: 'sk-fake-consumer' },
});
const requests = [
  ...['6637c0a25368ef07b03a64cd', '0190a4c2-7b1e-7c3a-9f00-1a2b3c4d5e6f', 'consumer-1'].map((id) => [
    'GET',
    `/human-evaluations/${id}`,
    undefined,
    'HumanEvaluation',
  ]),
  ['POST', '/evaluations', body, 'Evaluation'],
];
let failures = 0;
try {
  for (const [method, path, sent, resource] of requests) {
    const init = { method, body: sent, headers: sent ? { 'Content-Type': 'application/json' } : {} };
    const [viaMsw, viaMock] = [await fetch(`${origin}${path}`, init), await fetch(`${mockUrl}${path}`, init)];
    const [mswText, mockText] = [await viaMsw.text(), await viaMock.text()];
    const parsed = JSON.parse(mswText);
    const valid = (Array.isArray(parsed) ? parsed : [parsed]).every((item) => validate(resource, item).valid);
    const equal = viaMsw.status === viaMock.status && mswText === mockText;
    if (!valid || !equal || viaMsw.status !== 200) failures++;
    const verdict = `${valid ? 'valid' : 'INVALID'}, ${equal ? 'byte-identical' : 'DIFFERENT'}`;
    console.log(
      `${method} ${path}: msw ${viaMsw.status}, evalkit mock ${viaMock.status}, ${mswText.length} bytes, ${verdict}`,
    );
  }
} finally {
  server.close();
  mock.kill('SIGTERM');
}
console.log(failures === 0 ? 'pack check: passed' : `pack check: ${failures} failure(s)`);
process.exitCode = failures === 0 ? 0 : 1;
