import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../api/openapi.js';
import { projectRoot, spawnCli } from '../helpers/cli.js';

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
