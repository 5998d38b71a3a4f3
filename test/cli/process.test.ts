import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../api/openapi.js';
import { projectRoot, spawnCli } from '../helpers/cli.js';
import { startChild, type Child } from '../mock/processes.js';

/**
 * The CLI as a process: bin/evalkit.js hands the real streams, environment and signals to main(). Everything else
 * about the CLI runs in process (runCli); these are the few things only a process shows. test/README.md counts them.
 */
describe('bin/evalkit.js', () => {
  it("prints a command's output and exits 0 (evalkit openapi)", async () => {
    const run = await spawnCli(['openapi']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual(openApiDocument());
  });

  it('exits 2 on a usage error, with one line on stderr and nothing on stdout', async () => {
    const run = await spawnCli(['fixtures', '--bogus']);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: 'evalkit fixtures: unknown option --bogus (see evalkit fixtures --help)\n',
    });
  });
});

describe('evalkit fixtures | head -1', () => {
  it('ends quietly with exit 0 once the reader has gone, and stops generating', async () => {
    // A million fixtures would take minutes: the process ending at all shows generation stopped.
    const child = spawn(process.execPath, ['bin/evalkit.js', 'fixtures', '--count', '1000000', '--format', 'ndjson'], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const firstLine = await new Promise<string>((resolve) => {
      let buffered = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        if (buffered.includes('\n')) {
          child.stdout.destroy();
          resolve(buffered.slice(0, buffered.indexOf('\n')));
        }
      });
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(JSON.parse(firstLine)).toHaveProperty('schema', 'HumanEvaluation');
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});

describe('npx --no-install evalkit mock, killed', () => {
  const started: Child[] = [];
  // The whole process group, npx gone or not: a mock left running is what this test is about.
  afterAll(() =>
    started.forEach((child) => {
      try {
        process.kill(-(child.process.pid ?? 0), 'SIGKILL');
      } catch {
        // Nothing left in the group.
      }
    }),
  );

  it('leaves no mock behind: npm signals only its shell, and the orphaned mock stops by itself', async () => {
    // npx in this checkout runs the package's own bin, through `sh -c` as npm runs every bin.
    const npx = startChild('npx', ['--no-install', 'evalkit', 'mock', '--port', '0'], projectRoot);
    started.push(npx);
    const [, url] = await npx.waitFor(/listening on (\S+)/, 20_000);
    expect((await fetch(`${url}/human-evaluations/abc`)).status).toBe(200);
    npx.process.kill('SIGTERM');
    await npx.exited;
    // The mock closes its port within its parent check's 200 ms and its own shutdown.
    const deadline = Date.now() + 5_000;
    let refused = false;
    while (!refused && Date.now() < deadline) {
      refused = await fetch(`${url}/human-evaluations/abc`).then(
        () => false,
        () => true,
      );
      if (!refused) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(refused).toBe(true);
  });
});
