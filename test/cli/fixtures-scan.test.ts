import { closeSync, mkdirSync, openSync, writeFileSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { scanLimits } from '../../cli/fixtures/scan.js';
import { build } from '../../generators/factories.js';
import type { HumanEvaluation } from '../../schemas/types/resources.js';
import { runCli } from '../helpers/cli.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';
import { runs } from '../properties/runs.js';

afterAll(removeTempDirs);

/** A proxy --record folder holding one record, fetched once: what a team's fixtures were made from. */
function recording(record: HumanEvaluation): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'human-evaluations'));
  writeFileSync(join(dir, 'human-evaluations', `${record.id}.json`), JSON.stringify(record));
  const line = { method: 'GET', path: `/human-evaluations/${record.id}`, query: '', status: 200, request: {} };
  writeFileSync(join(dir, 'requests.jsonl'), `${JSON.stringify(line)}\n`);
  return dir;
}

const record = build('HumanEvaluation', { seed: 11 });
const escapedAll = (value: string) =>
  [...value].map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

describe('evalkit fixtures scan DIR --against RECORDING', () => {
  it('exits 1 naming each file and field, line or name where a recorded value stands, in any form', async () => {
    const against = recording(record);
    const fixtures = tempDir();
    mkdirSync(join(fixtures, 'nested'));
    writeFileSync(join(fixtures, 'user.json'), JSON.stringify({ profile: { name: record.user_username }, ok: 'x' }));
    writeFileSync(
      join(fixtures, 'nested', 'calls.http'),
      `GET /apps?user=${encodeURIComponent(record.user_username)}\n`,
    );
    writeFileSync(
      join(fixtures, 'blob.json'),
      JSON.stringify({ data: Buffer.from(`{"app":"${record.app_id}"}`).toString('base64') }),
    );
    writeFileSync(join(fixtures, 'escaped.txt'), `first line\nname: "${escapedAll(record.testset_name)}"\n`);
    writeFileSync(join(fixtures, 'lines.ndjson'), `{"a":1}\n{"variant":${JSON.stringify(record.variant_names[0])}}\n`);
    writeFileSync(join(fixtures, `${record.id}.json`), '{}');
    writeFileSync(join(fixtures, 'clean.json'), JSON.stringify({ status: record.status, at: record.created_at }));
    const run = await runCli(['fixtures', 'scan', fixtures, '--against', against]);
    expect(run.code).toBe(1);
    const seen = `holds a personal value ${against} has in clear`;
    expect(run.stdout.trim().split('\n').sort()).toEqual(
      [
        `${join(fixtures, 'user.json')}: /profile/name ${seen} (user_username)`,
        `${join(fixtures, 'nested', 'calls.http')}: line 1 ${seen} (user_username)`,
        `${join(fixtures, 'blob.json')}: /data ${seen} (app_id)`,
        `${join(fixtures, 'escaped.txt')}: line 2 ${seen} (testset_name)`,
        `${join(fixtures, 'lines.ndjson')}: line 2: /variant ${seen} (variant_names)`,
        `${join(fixtures, `${record.id}.json`)}: its name ${seen} (the id in a path)`,
        `6 personal values of ${against} in clear in ${fixtures} (7 files, 12 personal values searched): ` +
          'write them with --pseudonymize',
      ].sort(),
    );
    // The values themselves are never printed (the output would carry them into a CI log), but in the name of a file
    // named by one: the file must be named to be found.
    const printed = run.stdout.replaceAll(join(fixtures, `${record.id}.json`), '');
    for (const value of [record.user_username, record.app_id, record.testset_name, record.id])
      expect(printed).not.toContain(value);
  });

  it('exits 0 once the fixtures were written from the recording with --pseudonymize, 1 without', async () => {
    const against = recording(record);
    const key = join(tempDir(), 'key');
    const clear = join(tempDir(), 'clear');
    const pseudonymized = join(tempDir(), 'pseudonymized');
    expect((await runCli(['fixtures', '--from', against, '--out', clear])).code).toBe(0);
    const written = await runCli([
      'fixtures',
      '--from',
      against,
      '--out',
      pseudonymized,
      '--pseudonymize',
      '--pseudonym-key',
      key,
    ]);
    expect(written.code).toBe(0);
    const before = await runCli(['fixtures', 'scan', clear, '--against', against]);
    expect(before.code).toBe(1);
    expect(before.stdout).toContain(`${join(clear, 'human-evaluations', `${record.id}.json`)}: /user_username holds`);
    const after = await runCli(['fixtures', 'scan', pseudonymized, '--against', against]);
    expect(after).toEqual({
      code: 0,
      stdout: `no personal value of ${against} in ${pseudonymized} (2 files, 12 personal values searched)\n`,
      stderr: '',
    });
  });

  it('finds any personal value written in any of the four forms anywhere in a file (property)', async () => {
    const values = [record.id, record.app_id, record.user_username, record.testset_name, ...record.variant_names];
    const against = recording(record);
    const forms = {
      plain: (value: string) => value,
      escaped: escapedAll,
      percent: encodeURIComponent,
      base64: (value: string) => Buffer.from(value).toString('base64'),
    };
    const around = fc.string({ unit: fc.constantFrom(...' \n\t,;:{}[]=&"#0123456789'), maxLength: 30 });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...values),
        fc.constantFrom(...(Object.keys(forms) as Array<keyof typeof forms>)),
        fc.constantFrom('json-value', 'json-key', 'text', 'jsonl'),
        around,
        around,
        async (value, form, layout, before, after) => {
          const written = `${before}${forms[form](value)}${after}`;
          const text =
            layout === 'json-value'
              ? JSON.stringify({ note: written })
              : layout === 'json-key'
                ? JSON.stringify({ [written]: 1 })
                : layout === 'jsonl'
                  ? `{"a":1}\n${JSON.stringify([written])}\n`
                  : `# notes\n${written}\n`;
          const fixtures = tempDir();
          writeFileSync(join(fixtures, 'fixture.txt'), text);
          const run = await runCli(['fixtures', 'scan', fixtures, '--against', against]);
          expect(run.code, text).toBe(1);
          expect(run.stdout).toContain(`${join(fixtures, 'fixture.txt')}: `);
          expect(run.stdout).not.toContain(value);
        },
      ),
      runs(60),
    );
  });

  it('bad input: exit 2 with one line naming the folder, file or flag', async () => {
    const against = recording(record);
    const file = join(tempDir(), 'file.json');
    writeFileSync(file, '{}');
    const cases: Array<[string[], string]> = [
      [
        ['fixtures', 'scan', join(file, 'none'), '--against', against],
        `scan: cannot read ${join(file, 'none')} (ENOTDIR)`,
      ],
      [['fixtures', 'scan', file, '--against', against], `scan: ${file} is not a folder: name the folder of fixtures`],
      [
        ['fixtures', 'scan', tempDir()],
        'scan needs --against PATH: the recording whose personal values DIR must not hold',
      ],
      [
        ['fixtures', 'scan', tempDir(), '--against', file],
        `--against: ${file} is not a journal export (no "requests" list: save GET /__evalkit/requests)`,
      ],
      [
        ['fixtures', 'scan', tempDir(), '--against', join(file, 'x')],
        `--against: cannot read ${join(file, 'x')} (ENOTDIR)`,
      ],
      [
        ['fixtures', 'scan', tempDir(), '--against', against, '--count', '3'],
        '--count does not apply to fixtures scan',
      ],
      [['fixtures', 'scan', 'a', 'b', '--against', against], 'scan takes one folder, DIR, got 2'],
      [['fixtures', 'scna', 'a'], "unexpected argument 'scna'; did you mean scan? (see evalkit fixtures --help)"],
      [
        ['fixtures', '--against', against],
        '--against is the recording of a scan: evalkit fixtures scan DIR --against PATH',
      ],
      [
        ['fixtures', '--pseudonymize'],
        '--pseudonymize rewrites a recording: add --from PATH (generated fixtures hold no personal value)',
      ],
      [['fixtures', '--from', against], '--from needs --out DIR: the folder to write the recording into'],
      [
        ['fixtures', '--from', against, '--out', against],
        `--out ${against} is the --from folder: write into another, so no file of the recording stays`,
      ],
      [
        ['fixtures', '--from', against, '--out', tempDir(), '--seed', '2'],
        '--seed does not apply to --from (it copies a recording)',
      ],
    ];
    for (const [args, line] of cases)
      expect(await runCli(args), args.join(' ')).toEqual({
        code: 2,
        stdout: '',
        stderr: `evalkit fixtures: ${line}\n`,
      });
  });

  it('bounded: a folder of too many files, or a file too large, is refused saying so, not read', async () => {
    const against = recording(record);
    const many = tempDir();
    for (let index = 0; index <= scanLimits.files; index++) writeFileSync(join(many, `f${index}`), '');
    expect(await runCli(['fixtures', 'scan', many, '--against', against])).toEqual({
      code: 2,
      stdout: '',
      stderr: `evalkit fixtures: ${many} holds more than ${scanLimits.files} files: scan a smaller folder\n`,
    });
    const large = tempDir();
    const huge = join(large, 'huge.json');
    const descriptor = openSync(huge, 'w');
    ftruncateSync(descriptor, scanLimits.fileBytes + 1);
    closeSync(descriptor);
    expect(await runCli(['fixtures', 'scan', large, '--against', against])).toEqual({
      code: 2,
      stdout: '',
      stderr: `evalkit fixtures: cannot read ${huge} (larger than 64 MiB): scan a folder of fixtures\n`,
    });
  });
});
