import { existsSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { defaultHumanEvaluationId } from '../../contract/run/fetch.js';
import { bodySchema, mapStrings } from '../../http/personal-values.js';
import { validate } from '../../schemas/validators/index.js';
import type { HumanEvaluation } from '../../schemas/types/resources.js';
import { startConformingServer, type RunningServer } from '../contract/conforming-server.js';
import { appCreateBody } from '../contract/app-requests.js';
import { runCli, startCli, type RunningCli } from '../helpers/cli.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';

/**
 * `evalkit proxy --record DIR --pseudonymize` as a user runs it (the CLI in this process, on real sockets), in front of
 * a conforming deployment: an app fetches a record, then creates an evaluation of that record's app, variants and
 * test set, telling its user's name in a header and a query as apps do.
 */

const running: RunningCli[] = [];
const servers: RunningServer[] = [];
afterEach(async () => {
  for (const cli of running.splice(0)) cli.kill();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(removeTempDirs);

async function proxy(args: string[]): Promise<{ cli: RunningCli; url: string }> {
  const cli = startCli(['proxy', '--port', '0', ...args]);
  running.push(cli);
  const [, url] = await cli.waitFor(/listening on (http:\/\/\S+),/, 15_000);
  return { cli, url: url as string };
}

/** Each personal value of a record as the client got it, by the schemas' marks. */
function personalValues(record: unknown): string[] {
  const values: string[] = [];
  mapStrings(bodySchema('HumanEvaluation'), record, (text, kind) => {
    if (kind === 'personal') values.push(text);
    return text;
  });
  return values;
}

/** Every way a value may stand in a file: plain, JSON-escaped, percent-encoded, base64. */
const forms = (value: string) => [
  value,
  JSON.stringify(value).slice(1, -1),
  encodeURIComponent(value),
  Buffer.from(value).toString('base64'),
];

/** The app's session through the proxy; the record it got, and what the folder holds once the proxy stopped. */
async function session(target: string, dir: string, key: string) {
  const { cli, url } = await proxy(['--target', target, '--record', dir, '--pseudonymize', '--pseudonym-key', key]);
  const fetched = await fetch(`${url}/human-evaluations/${defaultHumanEvaluationId}`);
  const record = (await fetched.json()) as HumanEvaluation;
  await cli.waitFor(/recorded .*\.json/, 5_000);
  const body = appCreateBody('sk-app-provider-key-41b7', {
    app_id: record.app_id,
    variant_ids: record.variant_ids,
    testset_id: record.testset_id,
  });
  const user = encodeURIComponent(record.user_username);
  const created = await fetch(`${url}/evaluations?by=${user}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user': record.user_username },
    body: JSON.stringify(body),
  });
  expect(created.status).toBe(200);
  await created.text();
  cli.process.kill('SIGINT');
  const { code } = await cli.exited;
  return { code, record, cli };
}

describe('evalkit proxy --record --pseudonymize', () => {
  it('records pseudonyms, one per original in every file, no original in any form; the key stays outside', async () => {
    const target = await startConformingServer();
    servers.push(target);
    const dir = tempDir();
    const key = join(tempDir(), 'pseudonym-key');
    const { code, record, cli } = await session(target.url, dir, key);
    expect(code).toBe(0);
    expect(cli.stderr()).toContain(`created the pseudonym key ${key} (mode 0600): keep it out of the repository`);
    expect(statSync(key).mode & 0o777).toBe(0o600);

    const [name, ...others] = readdirSync(join(dir, 'human-evaluations'));
    expect(others).toEqual([]);
    const fakeId = (name as string).replace(/\.json$/, '');
    expect(fakeId).toMatch(/^[0-9a-f]{24}$/);
    expect(fakeId.slice(0, 8)).toBe(record.id.slice(0, 8));
    expect(fakeId).not.toBe(record.id);
    const written = JSON.parse(readFileSync(join(dir, 'human-evaluations', name as string), 'utf8')) as HumanEvaluation;
    expect(validate('HumanEvaluation', written).valid).toBe(true);
    expect(written.id).toBe(fakeId);
    expect(written.status).toBe(record.status);
    expect(written.created_at).toBe(record.created_at);

    const [fetchLine, createLine] = readFileSync(join(dir, 'requests.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            path: string;
            query: string;
            request: { headers: Record<string, string>; body: Record<string, unknown> };
          },
      );
    // The path's id, the record's file and its id: one pseudonym.
    expect(fetchLine?.path).toBe(`/human-evaluations/${fakeId}`);
    // The create names the record's app, variants and test set: the same pseudonyms as in the record's file.
    expect(createLine?.request.body).toMatchObject({
      app_id: written.app_id,
      variant_ids: written.variant_ids,
      testset_id: written.testset_id,
      lm_providers_keys: { OPENAI_API_KEY: '<PROVIDER_KEY>' },
    });
    expect(validate('CreateEvaluationRequest', createLine?.request.body).valid).toBe(true);
    // The user's name the app put in a header and a query: swept to its pseudonym.
    expect(createLine?.request.headers['x-user']).toBe(written.user_username);
    expect(createLine?.query).toBe(`by=${encodeURIComponent(written.user_username)}`);

    const texts = [join(dir, 'requests.jsonl'), join(dir, 'human-evaluations', name as string)].map((file) =>
      readFileSync(file, 'utf8'),
    );
    for (const original of personalValues(record))
      for (const form of forms(original)) for (const text of texts) expect(text).not.toContain(form);
    expect(readdirSync(dir).sort()).toEqual(['human-evaluations', 'requests.jsonl']);

    // Another run, another folder, the same key: the same pseudonyms.
    const again = tempDir();
    await session(target.url, again, key);
    expect(readdirSync(join(again, 'human-evaluations'))).toEqual([name]);
  });

  it('refuses a key in the --record folder or through a link, --pseudonymize alone: exit 2, one line', async () => {
    const dir = tempDir();
    const recordWithKey = (key: string) =>
      runCli(['proxy', '--target', 'http://127.0.0.1:9', '--record', dir, '--pseudonymize', '--pseudonym-key', key]);
    const inside = await recordWithKey(join(dir, 'sub', 'k'));
    expect(inside).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `evalkit proxy: --pseudonym-key: ${join(dir, 'sub', 'k')} is inside the --record folder ${dir}, where it ` +
        'would travel with the recordings: keep the key elsewhere (--pseudonym-key FILE)\n',
    });
    expect(existsSync(join(dir, 'sub'))).toBe(false);

    const elsewhere = tempDir();
    const planted = join(elsewhere, 'k');
    symlinkSync(join(elsewhere, 'target'), planted);
    const linked = await recordWithKey(planted);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toBe(
      `evalkit proxy: --pseudonym-key: ${planted} is a symbolic link: evalkit reads a pseudonym key only from a ` +
        'private file of its own\n',
    );
    expect(existsSync(join(elsewhere, 'target'))).toBe(false);

    const alone = await runCli(['proxy', '--target', 'http://127.0.0.1:9', '--pseudonymize']);
    expect(alone).toMatchObject({
      code: 2,
      stderr: 'evalkit proxy: --pseudonymize rewrites what --record writes: add --record DIR\n',
    });
    const keyAlone = await runCli([
      'proxy',
      '--target',
      'http://127.0.0.1:9',
      '--record',
      dir,
      '--pseudonym-key',
      planted,
    ]);
    expect(keyAlone.stderr).toBe('evalkit proxy: --pseudonym-key is the key of --pseudonymize: add --pseudonymize\n');
  });
});
