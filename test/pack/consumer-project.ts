import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { projectRoot } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dirs.js';

/**
 * Empty projects that hold evalkit as a user's would, each under a chosen Node: the tarball of the built package
 * (packed once per test file) or evalkit's git repository, installed by npm; or the tarball unpacked beside its
 * dependencies linked from this checkout (`unpackConsumer`). npm runs under that Node (it comes first on PATH), so
 * engines are judged against it, and installs prefer npm's cache so they stay offline when they can.
 */

/** The version of a package as installed in `dir`'s node_modules (evalkit's own, or a consumer project's). */
export function installedVersion(dir: string, name: string): string {
  return (JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version;
}

export interface NodeRuntime {
  /** The node binary. */
  execPath: string;
  version: string;
}

export const thisNode: NodeRuntime = { execPath: process.execPath, version: process.version };

const fromRegistry = new Map<number, Promise<NodeRuntime>>();

/**
 * A Node of this major from the registry (`npx -y -p node@MAJOR`), resolved once. Fails, never skips: CI has the
 * registry, and a test that skipped here would stop showing that evalkit installs and runs on that Node.
 */
export function nodeFromRegistry(major: 22 | 24): Promise<NodeRuntime> {
  let node = fromRegistry.get(major);
  if (!node) {
    const npx = ['-y', '-p', `node@${major}`, 'node', '-p', 'process.execPath + " " + process.version'];
    node = run('npx', npx, { cwd: tmpdir() }).then(
      (output) => {
        const [execPath = '', version = ''] = output.trim().split('\n').at(-1)?.split(' ') ?? [];
        return { execPath, version };
      },
      (error: Error) => {
        throw new Error(
          `no Node ${major} for the install test: \`npx -y -p node@${major}\` failed (it needs the npm registry): ` +
            error.message,
        );
      },
    );
    fromRegistry.set(major, node);
  }
  return node;
}

/** PATH with the runtime's folder first, so `npm`, `npx` and scripts' `node` run under that Node. */
export function envFor(node: NodeRuntime, env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${dirname(node.execPath)}${delimiter}${process.env.PATH ?? ''}`,
    NO_COLOR: '1',
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    ...env,
  };
}

/** Resolves to the command's stdout and stderr, interleaved as written; rejects with both when it fails. */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, { ...options, maxBuffer: 64 * 1024 * 1024 }, (error) =>
      error ? reject(new Error(`${command} ${args.join(' ')}: ${error.message}\n${output}`)) : resolve(output),
    );
    let output = '';
    child.stdout?.on('data', (data: Buffer) => (output += data.toString()));
    child.stderr?.on('data', (data: Buffer) => (output += data.toString()));
  });
}

export interface PackedPackage {
  tarball: string;
  /** The paths the tarball holds. */
  files: string[];
}

let packed: PackedPackage | undefined;

/** The built package packed once (scripts skipped: `npm test` built dist/ already, and other tests read it). */
export function packOnce(): PackedPackage {
  // Another file of the worker may have packed it, and removed its temporary folders since.
  if (packed && existsSync(packed.tarball)) return packed;
  const destination = tempDir('evalkit-tarball-');
  const output = execFileSync(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--loglevel=error', '--pack-destination', destination],
    { cwd: projectRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const [result] = JSON.parse(output) as { filename: string; files: { path: string }[] }[];
  if (!result) throw new Error('npm pack listed no tarball');
  packed = { tarball: join(destination, result.filename), files: result.files.map((file) => file.path) };
  return packed;
}

export interface ConsumerProject {
  dir: string;
  node: NodeRuntime;
  /** What `npm install` printed, warnings included. */
  installOutput: string;
}

/** An empty ES module project's folder. */
function emptyProject(): string {
  const dir = tempDir('evalkit-consumer-');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'empty-app', private: true, type: 'module' }));
  return dir;
}

/** An empty ES module project, with `specs` installed by npm under `node`. */
export async function installConsumer(node: NodeRuntime, specs: string[]): Promise<ConsumerProject> {
  const dir = emptyProject();
  const installOutput = await run('npm', ['install', '--save-dev', ...specs], { cwd: dir, env: envFor(node) });
  return { dir, node, installOutput };
}

/**
 * A package of this checkout's node_modules, linked into the project's (npm would only fetch the same again). Answers
 * the link's path.
 */
export function linkFromCheckout(project: ConsumerProject, name: string): string {
  const link = join(project.dir, 'node_modules', name);
  mkdirSync(dirname(link), { recursive: true });
  try {
    symlinkSync(join(projectRoot, 'node_modules', name), link, 'dir');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return link;
}

/**
 * An empty project under this Node holding the packed tarball as npm would lay it out, without npm: the tarball
 * unpacked into node_modules/evalkit, and each dependency its package.json declares (and `also`) linked from this
 * checkout. What the package holds, exports and types is all here; a dependency it uses but does not declare fails to
 * import. npm's own part (engines, scripts, the registry's newest versions in range, msw's floor) is the installs' of
 * `npm run test:install` (test/pack/matrix.test.ts), on every CI run: here it would cost a fifth of the suite.
 */
export function unpackConsumer(tarball: string, also: string[]): ConsumerProject {
  const project: ConsumerProject = { dir: emptyProject(), node: thisNode, installOutput: '' };
  const evalkit = join(project.dir, 'node_modules', 'evalkit');
  mkdirSync(evalkit, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '--strip-components=1', '-C', evalkit]);
  const { dependencies = {} } = JSON.parse(readFileSync(join(evalkit, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  for (const name of [...Object.keys(dependencies), ...also]) linkFromCheckout(project, name);
  return project;
}

/**
 * The lines of an install's output that a user of evalkit should never see: any unsupported engine, and any install
 * script of evalkit's own left for review (its build would run on no consumer's machine).
 */
export function installComplaints(output: string): string[] {
  return output.split('\n').filter((line) => /EBADENGINE/.test(line) || /install-scripts\s+evalkit@/.test(line));
}
