import { writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';

afterAll(removeTempDirs);

/** Exactly one line on stderr, nothing on stdout: what every mistake and failure gets. */
function oneLine(run: { stdout: string; stderr: string }): string {
  expect(run.stdout).toBe('');
  expect(run.stderr.split('\n')).toHaveLength(2);
  return run.stderr;
}

describe('the CLI at its edges: one line naming the problem and the fix, exit 2 when it cannot run', () => {
  it('evalkit alone prints its usage on stderr, exit 2', async () => {
    const run = await runCli([]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^Usage: evalkit <command> \[options\]\n/);
  });

  it('--help states the one exit-code rule: 1 only for a failed contract, 2 for usage and cannot run', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Exit codes:\n {2}0 {2}success\n {2}1 {2}a failed verdict: contract or proxy FAIL /m);
    expect(run.stdout).toMatch(/^ {2}2 {2}a usage error, or the command cannot run: a port in use, /m);
  });

  it('suggests the command a typo meant', async () => {
    const run = await runCli(['mok']);
    expect(run.code).toBe(2);
    expect(oneLine(run)).toMatch(/^evalkit: unknown command 'mok'; did you mean mock\? \(commands: [a-z, ]+; see/);
    expect(oneLine(await runCli(['zzzzzz']))).not.toMatch(/did you mean/);
  });

  it('an unknown option before any command is named as an option, with the one it likely meant', async () => {
    const run = await runCli(['--verison']);
    expect(run.code).toBe(2);
    expect(oneLine(run)).toMatch(
      /^evalkit: unknown option --verison; did you mean --version\? \(commands: [a-z, ]+; see/,
    );
    expect(oneLine(await runCli(['--hepl']))).toMatch(/^evalkit: unknown option --hepl; did you mean --help\?/);
    expect(oneLine(await runCli(['--port']))).toMatch(/^evalkit: unknown option --port \(commands: /);
  });

  it.each([
    ['mock', []],
    ['proxy', ['--target', 'http://127.0.0.1:9']],
  ])('%s: a port in use exits 2 (cannot run), naming the address and the fix', async (command, args) => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const run = await runCli([command, ...args, '--port', String(port)]);
      expect(run.code).toBe(2);
      expect(oneLine(run)).toBe(
        `evalkit ${command}: cannot listen on 127.0.0.1:${port} (EADDRINUSE): the port is in use; ` +
          'pass another --port, or --port 0 for a free one\n',
      );
    } finally {
      taken.close();
    }
  });

  it.each([
    ['mock', []],
    ['proxy', ['--target', 'http://127.0.0.1:9']],
  ])('%s: an unknown --host is named in a sentence, not getaddrinfo text, exit 2', async (command, args) => {
    const run = await runCli([command, ...args, '--host', 'nosuch.invalid', '--port', '0']);
    expect(run.code).toBe(2);
    expect(oneLine(run)).toMatch(
      new RegExp(
        `^evalkit ${command}: cannot listen on nosuch\\.invalid:0: ` +
          '(no address found for the host name|the host name could not be looked up \\(DNS\\)); ' +
          'pass an address of this machine, e\\.g\\. --host 127\\.0\\.0\\.1',
      ),
    );
  });

  it('fixtures --out naming a file, or a path under one, asks for a folder, exit 2', async () => {
    const file = join(tempDir('evalkit-out-'), 'taken.json');
    writeFileSync(file, '[]');
    const args = ['fixtures', '--count', '1', '--out'];
    const onFile = await runCli([...args, file]);
    expect(onFile.code).toBe(2);
    expect(oneLine(onFile)).toBe(
      `evalkit fixtures: --out ${file} is a file; pass a folder (it is created if missing)\n`,
    );
    const underFile = await runCli([...args, join(file, 'sub')]);
    expect(underFile.code).toBe(2);
    expect(oneLine(underFile)).toBe(
      `evalkit fixtures: --out ${join(file, 'sub')} lies under a file; pass a folder (it is created if missing)\n`,
    );
  });

  it.each(['contract', 'proxy'])('%s: a --header with no colon shows the form, never the value', async (command) => {
    const target = command === 'contract' ? '--base-url' : '--target';
    const run = await runCli([command, target, 'http://127.0.0.1:9', '--header', 'Authorization Bearer sk-secret']);
    expect(run.code).toBe(2);
    expect(oneLine(run)).toBe(
      `evalkit ${command}: --header must be "Name: value", e.g. --header "Authorization: Bearer TOKEN"; ` +
        'this one has no colon\n',
    );
    expect(run.stderr).not.toMatch(/Bearer sk|secret/);
  });

  it('a --header whose name is not a header name says so, never echoing it', async () => {
    const run = await runCli(['contract', '--base-url', 'http://127.0.0.1:9', '--header', 'sk secret: x']);
    expect(run.code).toBe(2);
    expect(oneLine(run)).toMatch(/this one's name, before the colon, is not a header name \(letters, digits,/);
    expect(run.stderr).not.toMatch(/secret/);
  });

  it.each(['notaurl', 'http://localhost:5173/app', 'ftp://localhost'])(
    'mock --cors-origin %s is refused, naming the expected form',
    async (origin) => {
      const run = await runCli(['mock', '--port', '0', '--cors-origin', origin]);
      expect(run.code).toBe(2);
      expect(oneLine(run)).toBe(
        `evalkit mock: --cors-origin must be an origin like http://localhost:5173 (scheme, host, port; no path), ` +
          `or *; got '${origin}'\n`,
      );
    },
  );
});
