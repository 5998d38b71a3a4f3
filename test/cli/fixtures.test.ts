import { readdir, readFile, rename } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recordFolder } from '../../api/operations.js';
import { generateBatch, type Profile } from '../../generators/index.js';
import { resourceNames, schemaFiles } from '../../schemas/index.js';
import { validate } from '../../schemas/validators/index.js';
import { projectRoot, runCli, startCli } from '../helpers/cli.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';

function lines(stdout: string): unknown[] {
  return stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
}

describe('evalkit fixtures', () => {
  // Validity and determinism per seed over thousands of instances are the generators' (test/generators); the
  // command's part is printing the generators' batch for the seed and profile asked, byte for byte, streamed (its
  // chunking: json-stream.test.ts).
  it.each(resourceNames)(
    "%s: prints the generators' batch for --seed and --profile, as ndjson and as JSON",
    async (name) => {
      const args = ['fixtures', '--schema', name, '--count', '20', '--seed', '7'];
      const [ndjson, json] = await Promise.all([
        runCli([...args, '--format', 'ndjson']),
        runCli([...args, '--profile', 'edge']),
      ]);
      expect(ndjson.code).toBe(0);
      const batch = (profile: Profile) => [...generateBatch(name, '7', 20, { profile })];
      expect(ndjson.stdout).toBe(
        batch('mixed')
          .map((instance) => `${JSON.stringify(instance)}\n`)
          .join(''),
      );
      expect(json.code).toBe(0);
      expect(json.stdout).toBe(`${JSON.stringify(batch('edge'), null, 2)}\n`);
      for (const instance of lines(ndjson.stdout)) expect(validate(name, instance).valid).toBe(true);
    },
  );

  const outDir = tempDir('evalkit-fixtures-');
  afterAll(removeTempDirs);

  it("--out writes HumanEvaluations as the mock's record folder, every other resource as a JSON array", async () => {
    const dir = outDir;
    const run = await runCli(['fixtures', '--count', '3', '--out', dir, '--profile', 'full']);
    expect(run.code).toBe(0);
    const others = resourceNames.filter((name) => name !== 'HumanEvaluation');
    expect((await readdir(dir)).sort()).toEqual([recordFolder, ...others.map((name) => schemaFiles[name])].sort());
    for (const name of others) {
      const instances = JSON.parse(await readFile(join(dir, schemaFiles[name]), 'utf8')) as unknown[];
      expect(instances).toHaveLength(3);
      for (const instance of instances) expect(validate(name, instance).valid).toBe(true);
    }
    const records = await readdir(join(dir, recordFolder));
    expect(records).toHaveLength(3);
    for (const file of records) {
      const record = JSON.parse(await readFile(join(dir, recordFolder, file), 'utf8')) as { id: string };
      expect(validate('HumanEvaluation', record).valid).toBe(true);
      expect(`${record.id}.json`).toBe(file);
    }
  });

  it('--out DIR is what `evalkit mock --fixtures DIR --strict-ids` serves: every id written, no other', async () => {
    const dir = join(outDir, 'served');
    expect(
      (await runCli(['fixtures', '--schema', 'HumanEvaluation', '--count', '8', '--seed', '5', '--out', dir])).code,
    ).toBe(0);
    const files = await readdir(join(dir, recordFolder));
    expect(files).toHaveLength(8);
    const mock = startCli(['mock', '--port', '0', '--quiet', '--fixtures', dir, '--strict-ids']);
    try {
      const [, url] = (await mock.waitFor(/listening on (http:\/\/\S+)\n/, 10_000)) as unknown as [string, string];
      for (const file of files) {
        const response = await fetch(`${url}/human-evaluations/${file.slice(0, -'.json'.length)}`);
        expect(response.status, file).toBe(200);
        expect(await response.json()).toEqual(JSON.parse(await readFile(join(dir, recordFolder, file), 'utf8')));
      }
      expect((await fetch(`${url}/human-evaluations/not-written`)).status).toBe(404);
    } finally {
      mock.kill();
    }
  });

  it('--out into a folder holding other records says how many the mock will serve beside the new', async () => {
    const dir = join(outDir, 'again');
    const folder = join(dir, recordFolder);
    const args = (count: string, seed: string) =>
      runCli(['fixtures', '--schema', 'HumanEvaluation', '--count', count, '--seed', seed, '--out', dir]);
    expect((await args('3', '1')).stderr).toBe(
      `wrote ${join(folder, '<id>.json')} (3 HumanEvaluation records, served by evalkit mock --fixtures ${dir})\n`,
    );
    // The same run again rewrites the same files: nothing besides them.
    expect((await args('3', '1')).stderr).not.toMatch(/other/);
    const { code, stderr } = await args('2', '2');
    expect(code).toBe(0);
    expect(stderr).toBe(
      `wrote ${join(folder, '<id>.json')} (2 HumanEvaluation records, served by evalkit mock --fixtures ${dir}; ` +
        `3 other records already there are served too: empty ${folder} first for these alone)\n`,
    );
    expect(await readdir(folder)).toHaveLength(5);
  });

  it('--out writes records as the proxy does: an id already there in another case is refused, exit 2', async () => {
    const dir = join(outDir, 'cased');
    const args = ['fixtures', '--schema', 'HumanEvaluation', '--count', '1', '--seed', '9', '--out', dir];
    expect((await runCli(args)).code).toBe(0);
    const [file] = await readdir(join(dir, recordFolder));
    const id = (file as string).slice(0, -'.json'.length);
    await rename(join(dir, recordFolder, file as string), join(dir, recordFolder, `${id.toUpperCase()}.json`));
    const { code, stderr } = await runCli(args);
    expect(stderr).toBe(
      `evalkit fixtures: the id differs from ${id.toUpperCase()}, already in the folder, only in case ` +
        '(one file on macOS, Windows)\n',
    );
    expect(code).toBe(2);
    expect(await readdir(join(dir, recordFolder))).toEqual([`${id.toUpperCase()}.json`]);
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
    const files = await filesUnder(dir);
    const fresh = outDir;
    const regenerated = join(fresh, 'samples');
    await runCli(['fixtures', '--count', '5', '--seed', '7', '--out', regenerated]);
    await runCli(['fixtures', '--invalid', '--count', '40', '--seed', '7', '--out', regenerated]);
    expect(await filesUnder(regenerated)).toEqual(files);
    for (const file of files)
      expect(await readFile(join(regenerated, file), 'utf8'), file).toBe(await readFile(join(dir, file), 'utf8'));
    for (const name of resourceNames.filter((resource) => resource !== 'HumanEvaluation')) {
      for (const instance of JSON.parse(await readFile(join(dir, schemaFiles[name]), 'utf8')) as unknown[])
        expect(validate(name, instance).valid).toBe(true);
    }
    const records = files.filter((file) => file.startsWith(`${recordFolder}/`));
    expect(records).toHaveLength(5);
    for (const file of records)
      expect(validate('HumanEvaluation', JSON.parse(await readFile(join(dir, file), 'utf8'))).valid).toBe(true);
  });
});

/** Every file under a folder, by its path relative to it, sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

describe('the CLI answers mistakes in one line with exit code 2', () => {
  it.each([
    [['nope'], /unknown command 'nope'/],
    [['fixtures', '--bogus'], /unknown option --bogus \(see evalkit fixtures --help\)/],
    [['fixtures', '--count', '1.5'], /--count must be an integer/],
    [['fixtures', '--count', '-3'], /--count must be an integer from 0 to 1000000, got '-3'/],
    [['fixtures', '--schema', 'Evaluations'], /--schema must be one of/],
    [['fixtures', '--profile', 'wild'], /--profile must be one of minimal, full, mixed, edge/],
    [['fixtures', '--format', 'xml'], /--format must be one of json, ndjson/],
    [['openapi', '--format', 'toml'], /--format must be one of json, yaml, got 'toml'$/m],
    // A value near a choice, letter case aside, is named: the schema files are lower-case (evaluation.json).
    [['fixtures', '--schema', 'evaluation'], /, RateLimit, got 'evaluation'; did you mean Evaluation\?$/m],
    [['fixtures', '--schema', 'HumanEvalution'], /got 'HumanEvalution'; did you mean HumanEvaluation\?$/m],
    [
      ['fixtures', '--profile', 'ful'],
      /--profile must be one of minimal, full, mixed, edge, got 'ful'; did you mean full\?/,
    ],
    [['fixtures', '--format', 'NDJSON'], /--format must be one of json, ndjson, got 'NDJSON'; did you mean ndjson\?/],
    [['openapi', '--format', 'yml'], /--format must be one of json, yaml, got 'yml'; did you mean yaml\?/],
    // An empty value (an unset shell variable) is refused before any file or folder is opened with it.
    [['fixtures', '--out', ''], /^evalkit fixtures: --out needs a value \(DIR\), got an empty one$/m],
    [['fixtures', '--out='], /^evalkit fixtures: --out needs a value \(DIR\), got an empty one$/m],
    [['mock', '--scenarios', ''], /^evalkit mock: --scenarios needs a value \(FILE\), got an empty one$/m],
    [['contract', '--base-url', 'http://127.0.0.1:9', '--report-json', ''], /--report-json needs a value \(FILE\)/],
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
    const commands = /^Commands:\n((?: {2}.*\n)+)/m.exec(main.stdout)?.[1] ?? '';
    const names = [...commands.matchAll(/^ {2}(\S+) {2,}/gm)].map((match) => match[1]);
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
