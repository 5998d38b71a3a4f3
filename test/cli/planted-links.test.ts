import { linkSync, lstatSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { listenFailure } from '../../cli/listen-failure.js';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { recordFolder } from '../../api/operations.js';
import { resourceNames, schemaFiles } from '../../schemas/index.js';
import { runCli } from '../helpers/cli.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import { runs } from '../properties/runs.js';

/**
 * A colleague (or a script) plants links in a folder evalkit writes into, each pointing at a file outside it: evalkit
 * writes the folder's own files, or refuses naming the link, and never writes through one.
 */

afterAll(removeTempDirs);

const untouched = 'a file outside the folder, which no evalkit run may change\n';

/** A folder with a link at each name, each to its own file in another folder; returns those files. */
function plantLinks(dir: string, names: readonly string[]): string[] {
  const outside = tempDir('evalkit-outside-');
  return names.map((name) => {
    const target = join(outside, `${name}.target`);
    writeFileSync(target, untouched);
    symlinkSync(target, join(dir, name));
    return target;
  });
}

describe('fixtures --out never writes through a link planted in the folder', () => {
  it('a link at every file it writes: each replaced by the file itself, every target left as it was', async () => {
    const dir = tempDir('evalkit-planted-');
    const names = resourceNames.filter((name) => name !== 'HumanEvaluation').map((name) => schemaFiles[name]);
    const invalid = 'create-evaluation-request.invalid.json';
    const targets = plantLinks(dir, [...names, invalid]);
    const run = await runCli(['fixtures', '--count', '2', '--out', dir]);
    expect(run.code, run.stderr).toBe(0);
    expect((await runCli(['fixtures', '--invalid', '--count', '2', '--out', dir])).code).toBe(0);
    for (const target of targets) expect(readFileSync(target, 'utf8')).toBe(untouched);
    for (const name of [...names, invalid]) {
      expect(lstatSync(join(dir, name)).isSymbolicLink(), name).toBe(false);
      expect(JSON.parse(readFileSync(join(dir, name), 'utf8'))).toHaveLength(2);
    }
    expect(readdirSync(dir).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('a link in place of the record folder: exit 2 naming it, nothing written where it leads', async () => {
    const dir = tempDir('evalkit-planted-');
    const outside = tempDir('evalkit-outside-');
    symlinkSync(outside, join(dir, recordFolder));
    const run = await runCli(['fixtures', '--schema', 'HumanEvaluation', '--count', '2', '--out', dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `evalkit fixtures: --out: ${join(dir, recordFolder)} is a symbolic link: evalkit writes only inside the ` +
        'folder asked for, never through a link (remove it)\n',
    );
    expect(readdirSync(outside)).toEqual([]);
  });
});

describe('proxy --record never appends through a planted requests.jsonl', () => {
  it('a link at requests.jsonl, or for the record folder: exit 2 at start-up naming it, target unchanged', async () => {
    for (const name of ['requests.jsonl', recordFolder]) {
      const dir = tempDir('evalkit-planted-');
      const [target] = plantLinks(dir, [name]) as [string];
      const run = await runCli(['proxy', '--target', 'http://127.0.0.1:9', '--port', '0', '--record', dir]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toBe(
        `evalkit proxy: --record: ${join(dir, name)} is a symbolic link: evalkit writes only inside the folder ` +
          'asked for, never through a link (remove it)\n',
      );
      expect(readFileSync(target, 'utf8')).toBe(untouched);
    }
  });

  it('a hard link at requests.jsonl: exit 2 naming it, the file it shares untouched', async () => {
    const dir = tempDir('evalkit-planted-');
    const outside = join(tempDir('evalkit-outside-'), 'elsewhere.jsonl');
    writeFileSync(outside, untouched);
    linkSync(outside, join(dir, 'requests.jsonl'));
    const run = await runCli(['proxy', '--target', 'http://127.0.0.1:9', '--port', '0', '--record', dir]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toBe(
      `evalkit proxy: --record: ${join(dir, 'requests.jsonl')} has 2 names (a hard link): evalkit appends only to a ` +
        "file of the folder's own (remove it)\n",
    );
    expect(readFileSync(outside, 'utf8')).toBe(untouched);
  });

  it('a file that cannot be written is named as such, never as a port that cannot be listened on', () => {
    const denied = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES', syscall: 'open' });
    expect(listenFailure(denied, '127.0.0.1', 0)).toBeUndefined();
    const port = Object.assign(new Error('listen EACCES'), { code: 'EACCES', syscall: 'listen' });
    expect(listenFailure(port, '127.0.0.1', 80)).toMatch(/^cannot listen on 127\.0\.0\.1:80 \(EACCES\): port 80/);
  });
});

describe('report files never write through a link planted at the name asked for', () => {
  it('each --report-* file: the link replaced by the report, every target as it was', async () => {
    const dir = tempDir('evalkit-planted-');
    const names = ['report.json', 'report.xml', 'report.html'];
    const targets = plantLinks(dir, names);
    const [json, junit, html] = names.map((name) => join(dir, name)) as [string, string, string];
    // Nothing listens on port 9: the run reports the deployment unreachable, and writes its reports.
    const run = await runCli([
      'contract',
      '--base-url',
      'http://127.0.0.1:9',
      '--report-json',
      json,
      '--report-junit',
      junit,
      '--report-html',
      html,
    ]);
    expect(run.stderr).toContain(`JSON report written to ${json}`);
    for (const target of targets) expect(readFileSync(target, 'utf8')).toBe(untouched);
    for (const name of names) expect(lstatSync(join(dir, name)).isSymbolicLink(), name).toBe(false);
    expect(JSON.parse(readFileSync(json, 'utf8'))).toHaveProperty('verdict');
    expect(readFileSync(junit, 'utf8')).toMatch(/^<\?xml/);
    expect(readdirSync(dir).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('a link at $GITHUB_STEP_SUMMARY: refused naming it (exit 2), the target as it was', async () => {
    const dir = tempDir('evalkit-planted-');
    const [target] = plantLinks(dir, ['summary.md']) as [string];
    const summary = join(dir, 'summary.md');
    const run = await runCli(['contract', '--base-url', 'http://127.0.0.1:9', '--report-github'], {
      env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: summary },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `evalkit contract: cannot append the step summary to GITHUB_STEP_SUMMARY (${summary} is a symbolic link: ` +
        'evalkit writes only inside the folder asked for, never through a link (remove it))\n',
    );
    expect(readFileSync(target, 'utf8')).toBe(untouched);
  });
});

describe('property: any report file name, with or without a link planted there', () => {
  /**
   * Any code point but a lone surrogate, as fast-check's 'binary' unit draws them without the table of all of Unicode
   * that unit builds for shrinking (2 s a process).
   */
  const anyCharacter = fc
    .integer({ min: 0, max: 0x10ffff - 0x800 })
    .map((point) => String.fromCodePoint(point < 0xd800 ? point : point + 0x800));
  /** A name a shell passes whole: any characters but a separator or NUL, led by one that is no option's dash. */
  const fileName = fc
    .tuple(fc.constantFrom('r', 'R', '0', 'é', '_'), fc.string({ maxLength: 40, unit: anyCharacter }))
    .map(([first, rest]) => first + rest.replace(/[/\0]/g, '_'));

  it('the report is written at the name, as a file; a link there is replaced, its target as it was', async () => {
    await fc.assert(
      fc.asyncProperty(fileName, fc.boolean(), async (name, planted) => {
        const dir = tempDir('evalkit-report-name-');
        const [target] = planted ? plantLinks(dir, [name]) : [];
        const file = join(dir, name);
        const run = await runCli(['contract', '--base-url', 'http://127.0.0.1:9', '--report-json', file]);
        expect(run.stderr).toContain(`JSON report written to ${file}`);
        expect(lstatSync(file).isFile()).toBe(true);
        expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveProperty('verdict');
        if (target) expect(readFileSync(target, 'utf8')).toBe(untouched);
        expect(readdirSync(dir).filter((entry) => entry.endsWith('.partial'))).toEqual([]);
      }),
      runs(25),
    );
  });
});
