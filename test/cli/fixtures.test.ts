import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resourceNames, schemaFiles } from '../../schemas/index.js';
import { formatIssue, validate } from '../../schemas/validators/index.js';
import { projectRoot, runCli } from '../helpers/cli.js';

function lines(stdout: string): unknown[] {
  return stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
}

describe('evalkit fixtures', () => {
  it.each(resourceNames)(
    '%s: 1000 valid ndjson lines, byte-identical per seed, different with another seed',
    async (name) => {
      const args = ['fixtures', '--schema', name, '--count', '1000', '--seed', '7', '--format', 'ndjson'];
      const [first, again, other] = await Promise.all([
        runCli(args),
        runCli(args),
        runCli([...args.slice(0, -3), '8', '--format', 'ndjson']),
      ]);
      expect(first.code).toBe(0);
      const instances = lines(first.stdout);
      expect(instances).toHaveLength(1000);
      for (const instance of instances) {
        const { valid, issues } = validate(name, instance);
        if (!valid) expect.fail(issues.map(formatIssue).join('; '));
      }
      expect(again.stdout).toBe(first.stdout);
      if (name !== 'UndocumentedEvaluatorConfig') expect(other.stdout).not.toBe(first.stdout);
      expect(lines(other.stdout)).toHaveLength(1000);
    },
    60_000,
  );

  const outDir = mkdtemp(join(tmpdir(), 'evalkit-fixtures-'));
  afterAll(async () => rm(await outDir, { recursive: true, force: true }));

  it('--out writes one file per resource, each a JSON array of valid instances', async () => {
    const dir = await outDir;
    const run = await runCli(['fixtures', '--count', '3', '--out', dir, '--profile', 'full']);
    expect(run.code).toBe(0);
    expect((await readdir(dir)).sort()).toEqual(Object.values(schemaFiles).sort());
    for (const name of resourceNames) {
      const instances = JSON.parse(await readFile(join(dir, schemaFiles[name]), 'utf8')) as unknown[];
      expect(instances).toHaveLength(3);
      for (const instance of instances) expect(validate(name, instance).valid).toBe(true);
    }
  });

  it('without --schema prints every resource, keyed by name', async () => {
    const run = await runCli(['fixtures', '--count', '2']);
    expect(Object.keys(JSON.parse(run.stdout))).toEqual(resourceNames);
  });

  it('--invalid writes create requests that each break exactly the rule they name', async () => {
    const run = await runCli(['fixtures', '--invalid', '--count', '60', '--format', 'ndjson', '--seed', '3']);
    expect(run.code).toBe(0);
    const cases = lines(run.stdout) as Array<{ rule: string; pointer: string; keyword: string; body: unknown }>;
    expect(cases).toHaveLength(60);
    for (const item of cases) {
      const { issues } = validate('CreateEvaluationRequest', item.body);
      expect(issues, item.rule).toHaveLength(1);
      expect(issues[0]!.pointer).toBe(item.pointer);
      expect(item.rule.startsWith(`${item.pointer}: `)).toBe(true);
    }
    expect(new Set(cases.map((item) => item.rule)).size).toBeGreaterThan(25);
  });

  it('the committed samples are exactly what the command makes today, and valid', async () => {
    const dir = join(projectRoot, 'fixtures', 'samples');
    const files = await readdir(dir);
    const fresh = await outDir;
    const regenerated = join(fresh, 'samples');
    await runCli(['fixtures', '--count', '5', '--seed', '7', '--out', regenerated]);
    await runCli(['fixtures', '--invalid', '--count', '40', '--seed', '7', '--out', regenerated]);
    expect((await readdir(regenerated)).sort()).toEqual(files.sort());
    for (const file of files)
      expect(await readFile(join(regenerated, file), 'utf8'), file).toBe(await readFile(join(dir, file), 'utf8'));
    for (const name of resourceNames) {
      for (const instance of JSON.parse(await readFile(join(dir, schemaFiles[name]), 'utf8')) as unknown[])
        expect(validate(name, instance).valid).toBe(true);
    }
  });
});

describe('the CLI answers mistakes in one line with exit code 2', () => {
  it.each([
    [['nope'], /unknown command 'nope'/],
    [['fixtures', '--bogus'], /unknown option --bogus \(see evalkit fixtures --help\)/],
    [['fixtures', '--count', '1.5'], /--count must be an integer/],
    [['fixtures', '--count', '-3'], /--count must be an integer from 0 to 1000000, got '-3'/],
    [['fixtures', '--schema', 'Evaluations'], /--schema must be one of/],
    [['fixtures', '--profile', 'wild'], /--profile must be one of minimal, full, mixed, edge/],
    [['fixtures', '--format', 'xml'], /--format must be one of json, ndjson/],
    [['openapi', '--format', 'toml'], /--format must be one of json, yaml/],
  ])('evalkit %j', async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stdout).toBe('');
  });

  it('--help lists every command, and each command --help lists every option', async () => {
    const main = await runCli(['--help']);
    expect(main.code).toBe(0);
    const names = [...main.stdout.matchAll(/^ {2}(\S+) {2,}/gm)].map((match) => match[1]);
    expect(names).toEqual(expect.arrayContaining(['fixtures', 'openapi']));
    for (const name of names) {
      const help = await runCli([name!, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: evalkit ${name}`);
    }
    const fixtures = await runCli(['fixtures', '--help']);
    for (const option of ['--schema', '--count', '--seed', '--profile', '--format', '--out', '--invalid'])
      expect(fixtures.stdout).toContain(option);
  });
});
