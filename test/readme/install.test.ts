import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/cli.js';
import { envFor, installComplaints, run, thisNode } from '../pack/consumer-project.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import { validate } from '../../schemas/validators/index.js';
import { readmeBlock } from './snippet.js';

const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
  version: string;
  repository: { url: string };
};

/**
 * The README's "Install it in your project" commands, run as written by `sh -e` in an empty project, with one
 * substitution: the repository's URL (package.json's, which the README must name) becomes this checkout's HEAD commit
 * (`git+file://`), so the test installs what is committed here rather than what is on GitHub. npm clones it, installs
 * evalkit's dev dependencies there and builds it (postprepare): the slow part, a minute or two from npm's cache.
 */
describe('the README\'s "Install it in your project", as written, in an empty project', () => {
  afterAll(removeTempDirs);

  it('installs evalkit from its git repository, quietly, and runs the installed bin', async () => {
    const commands = readmeBlock('Install it in your project', 'sh');
    expect(commands).toContain(manifest.repository.url);
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: projectRoot, encoding: 'utf8' }).trim();
    const script = commands.replaceAll(manifest.repository.url, `git+file://${projectRoot}#${head}`);
    const dir = tempDir('evalkit-readme-install-');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'empty-app', private: true }));

    const output = await run('sh', ['-e', '-c', script], { cwd: dir, env: envFor(thisNode) });

    expect(installComplaints(output)).toEqual([]);
    expect(output).toMatch(new RegExp(`^${manifest.version.replaceAll('.', '\\.')}$`, 'm'));
    const written = readdirSync(join(dir, 'fixtures/evalkit'));
    expect(written).toContain('evaluation.json');
    const evaluations = JSON.parse(readFileSync(join(dir, 'fixtures/evalkit/evaluation.json'), 'utf8')) as unknown[];
    expect(evaluations.length).toBeGreaterThan(0);
    for (const evaluation of evaluations) expect(validate('Evaluation', evaluation).valid).toBe(true);
  }, 900_000);
});
