import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { mockServers, openEvents } from './control-helpers.js';
import { createRequest, secret } from './helpers.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';

const start = mockServers();
afterAll(removeTempDirs);

/** Sends exactly these bytes and headers (fetch would not let a body be UTF-16 or pre-compressed as given). */
function send(url: string, method: string, headers: Record<string, string>, body?: Uint8Array): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The secret as the journal, the events or the page could hold it: plain, as UTF-16 read byte by byte, encoded. */
function secretForms(): string[] {
  return [
    secret,
    Buffer.from(secret, 'utf16le').toString('latin1').slice(0, -1),
    [...secret].join('\\u0000'),
    Buffer.from(secret).toString('base64').slice(0, 16),
    Buffer.from(secret).toString('hex'),
    encodeURIComponent(secret),
  ];
}

/** A text, and every string in it once its JSON escapes are decoded (`\u0073k-...` is the secret too). */
function readings(text: string): string[] {
  const strings: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') strings.push(value);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  try {
    walk(JSON.parse(text));
  } catch {
    // Not JSON (the dashboard's HTML): the text alone.
  }
  return [text, strings.join('\n')];
}

function expectClean(where: string, text: string): void {
  for (const reading of readings(text))
    for (const form of secretForms())
      expect(reading.includes(form), `${where} holds ${JSON.stringify(form)}`).toBe(false);
}

/** A create request whose credential member is written `name`, padded with an extra field to `bytes` in all. */
function createBody(name: string, bytes: number, malformed = false): string {
  const { lm_providers_keys: _keys, ...rest } = createRequest();
  // The name goes into the JSON text as written: `\u005f` is an escape JSON decodes.
  const head = `{"${name}": {"OPENAI_API_KEY": "${secret}"}, `;
  const tail = JSON.stringify(rest).slice(1, -1);
  const padding = 'x'.repeat(Math.max(0, bytes - head.length - tail.length - '"padding": "", '.length - 1));
  const text = `${head}"padding": "${padding}", ${tail}}`;
  return malformed ? text.slice(0, -2) : text;
}

/** The credential member's name as clients may write it: JSON escapes, another case. */
const memberNames = ['lm_providers_keys', 'lm_providers\\u005fkeys', '\\u006cm_providers_keys', 'LM_PROVIDERS_KEYS'];
/** Around the journal's thresholds: what it keeps (8 KiB), what it reads (64 KiB), and the mock's body limit. */
const sizes = [600, 8 * 1024 - 64, 8 * 1024 + 64, 64 * 1024 - 64, 64 * 1024 + 64, 1024 * 1024 - 4096];

function utf16(text: string, order: 'le' | 'be', bom: boolean): Uint8Array {
  const le = Buffer.from(`${bom ? '\uFEFF' : ''}${text}`, 'utf16le');
  return order === 'le' ? le : le.swap16();
}

describe('credentials in the journal, however they are written', () => {
  it('are in no entry, event or page: escaped names, UTF-16, compressed, every size, nested, malformed', async () => {
    const { url, origin } = await start();
    const events = await openEvents(`${origin}/__evalkit/events`);
    const json = { 'Content-Type': 'application/json' };
    const statuses: number[] = [];
    const post = async (body: Uint8Array | string, headers: Record<string, string> = json) =>
      statuses.push(await send(`${url}/evaluations`, 'POST', headers, Buffer.from(body)));
    try {
      for (const name of memberNames)
        for (const bytes of sizes) {
          await post(createBody(name, bytes));
          await post(createBody(name, bytes, true));
        }
      // The secret's own characters escaped, under the plain name; a duplicate member; nested; wrong types (422).
      await post(
        createBody('lm_providers_keys', 9000).replace(
          secret,
          [...secret].map((c) => `\\u00${c.charCodeAt(0).toString(16)}`).join(''),
        ),
      );
      await post(`{"lm_providers_keys": {"A": "${secret}"}, "lm_providers_keys": {}}`);
      await post(JSON.stringify(createRequest({ app_id: { deep: [{ lm_providers_keys: { A: secret } }] } })));
      await post(JSON.stringify(createRequest({ lm_providers_keys: secret })));
      await post(JSON.stringify(createRequest({ lm_providers_keys: [secret] })));
      // UTF-16 in both byte orders, with and without a byte order mark; UTF-8 with one.
      for (const order of ['le', 'be'] as const)
        for (const bom of [false, true])
          for (const bytes of [600, 9000]) await post(utf16(createBody('lm_providers\\u005fkeys', bytes), order, bom));
      await post(`\uFEFF${createBody('lm_providers\\u005fkeys', 9000)}`);
      // Compressed, as a client may send them: the mock inflates, the journal reads what it inflated.
      for (const [encoding, compress] of [
        ['gzip', gzipSync],
        ['deflate', deflateSync],
        ['br', brotliCompressSync],
      ] as const)
        for (const bytes of [9000, 100 * 1024])
          await post(compress(createBody('lm_providers\\u005fkeys', bytes)), { ...json, 'Content-Encoding': encoding });
      // Credential headers and query values, on an API request.
      const headerSecrets = {
        Authorization: `Bearer ${secret}`,
        'Proxy-Authorization': `Basic ${Buffer.from(`user:${secret}`).toString('base64')}`,
        Cookie: `session=${secret}`,
        'X-Api-Key': secret,
        'X-Session-Id': secret,
        'X-Password': secret,
        'X-Credential': secret,
        'X-Auth-Token': secret,
        'X-Client-Secret': secret,
      };
      const query = `api_key=${secret}&access%5Ftoken=${secret}&Signature=${secret}&x_session=${secret}&id=visible`;
      statuses.push(await send(`${url}/human-evaluations/with-secrets?${query}`, 'GET', headerSecrets));

      const last = statuses.length;
      await events.next((event) => event.event === 'message' && JSON.parse(event.data).id === last, 10_000);
      const journal = await (await fetch(`${origin}/__evalkit/requests`)).text();
      const { requests } = JSON.parse(journal) as { requests: Array<Record<string, any>> };
      expect(requests).toHaveLength(last);
      expectClean('the journal', journal);
      for (const event of events.events) expectClean(`the event ${event.event}`, event.data);
      expectClean('the dashboard', await (await fetch(`${origin}/__evalkit/`)).text());
      for (const entry of requests) expectClean(`curl of entry ${entry.id}`, entry.curl);

      // Redacted by structure where the body reads as JSON, withheld whole where it does not.
      const [get, ...posts] = requests;
      expect(get?.request.headers).toMatchObject({
        authorization: '<AUTHORIZATION>',
        'x-session-id': '<X-SESSION-ID>',
        'x-password': '<X-PASSWORD>',
        'x-credential': '<X-CREDENTIAL>',
      });
      expect(get?.curl).toContain(
        'api_key=<API_KEY>&access%5Ftoken=<ACCESS_TOKEN>&Signature=<SIGNATURE>&x_session=<X_SESSION>&id=visible',
      );
      const bodies = posts.map((entry) => entry.request.body as unknown);
      const small = bodies.filter((body) => typeof body === 'object') as Array<Record<string, any>>;
      expect(small.some((body) => body['lm_providers_keys']?.OPENAI_API_KEY === '<PROVIDER_KEY>')).toBe(true);
      expect(small.some((body) => body['LM_PROVIDERS_KEYS']?.OPENAI_API_KEY === '<PROVIDER_KEY>')).toBe(true);
      const texts = bodies.filter((body) => typeof body === 'string') as string[];
      // UTF-16 is read in the charset its mark names, as records read it (http/kept-body.ts): kept, its key redacted.
      for (const reason of ['not JSON', 'over the 64 KiB the journal reads'])
        expect(
          texts.some((text) => new RegExp(`^<body withheld: \\d+ bytes, ${reason}>$`).test(text)),
          reason,
        ).toBe(true);
      // A body between the caps is kept as its redacted JSON text, cut.
      expect(texts.some((text) => text.includes('"OPENAI_API_KEY":"<PROVIDER_KEY>"'))).toBe(true);
      expect(statuses.filter((status) => status >= 500)).toEqual([]);
    } finally {
      events.close();
    }
  }, 120_000);

  it('keeps curl copies inert in a shell: the command replays the recorded request, word for word', async () => {
    const { url, origin } = await start();
    const dir = tempDir('evalkit-curl-');
    const argvFile = join(dir, 'argv');
    // A curl that only writes the words it was given, NUL-separated.
    writeFileSync(join(dir, 'curl'), `#!/bin/sh\nfor word in "$@"; do printf '%s\\0' "$word"; done > "$ARGV_FILE"\n`);
    chmodSync(join(dir, 'curl'), 0o755);
    const hostile = `it's $(touch pwned-1) \`touch pwned-2\` "; touch pwned-3; '`;
    const body = JSON.stringify(
      createRequest({ app_id: `${hostile}\n\u0000 $(touch pwned-4)`, correct_answer_column: "'\\''`id`" }),
    );
    const sent = `${url}/evaluations?note=$(touch%20pwned-5)'&token=${secret}`;
    expect(await send(sent, 'POST', { 'Content-Type': 'application/json', 'X-Note': hostile }, Buffer.from(body))).toBe(
      200,
    );
    const [entry] = ((await (await fetch(`${origin}/__evalkit/requests`)).json()) as { requests: any[] }).requests;
    const curl = entry.curl as string;
    expectClean('the curl copy', curl);
    execFileSync('sh', ['-n', '-c', curl]);
    execFileSync('sh', ['-c', curl], {
      cwd: dir,
      env: { ...process.env, PATH: `${dir}:${process.env.PATH}`, ARGV_FILE: argvFile },
    });
    expect(readdirSync(dir).sort()).toEqual(['argv', 'curl']);
    const argv = readFileSync(argvFile, 'utf8').split('\0').slice(0, -1);
    const headers = Object.entries(entry.request.headers as Record<string, string>)
      .filter(([name]) => !['host', 'content-length', 'connection'].includes(name))
      .flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
    expect(argv).toEqual([
      '-sS',
      '-i',
      '-X',
      'POST',
      `http://${new URL(origin).host}/evaluations${new URL(sent).search.replace(secret, '<TOKEN>')}`,
      ...headers,
      '--data-binary',
      JSON.stringify(entry.request.body),
    ]);
    expect(headers).toContain(`x-note: ${hostile}`);
    expect(entry.request.body.app_id).toBe(`${hostile}\n\u0000 $(touch pwned-4)`);
  });
});
