import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderOpenApi } from '../../api/openapi.js';
import { freePort } from '../../bench/free-port.js';
import { projectRoot } from './cli.js';
import { tempDir } from './temp-dirs.js';

/** Our OpenAPI document, written where Prism and Spectral can read it (a tempDir: removeTempDirs removes it). */
export async function writeOpenApiFile(format: 'json' | 'yaml' = 'yaml'): Promise<string> {
  const file = join(tempDir('evalkit-openapi-'), `openapi.${format}`);
  await writeFile(file, renderOpenApi(format));
  return file;
}

export interface PrismProcess {
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts `prism <args...> -p PORT` and resolves once it listens; Prism takes a few seconds to start. */
export async function startPrism(args: string[]): Promise<PrismProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join(projectRoot, 'node_modules/@stoplight/prism-cli/dist/index.js'),
      ...args,
      '-p',
      String(port),
      '-h',
      '127.0.0.1',
    ],
    {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not start in 45 s:\n${output}`)), 45_000);
    const check = () => {
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited with ${code}:\n${output}`));
    });
  }).catch(async (error) => {
    await stop();
    throw error;
  });
  return { url: `http://127.0.0.1:${port}`, output: () => output, stop };
}
