import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closeAll, judged, plain, proxyTo, rawRequest, recorded } from './helpers.js';
import { removeTempDirs, tempDir } from '../helpers/temp-dirs.js';

/** A hostile target and client trying to make the proxy record what a mock should never replay, or write elsewhere. */

afterEach(closeAll);
afterAll(removeTempDirs);

const known = '6637c0a25368ef07b03a64cd';
const record = JSON.parse(readFileSync(join('fixtures/mock/human-evaluations', `${known}.json`), 'utf8')) as object;

/** The record of whatever id the path asks for, valid for the schema; `cut-*` ids get it cut, `latin1-*` not UTF-8. */
function anyId() {
  return plain((req, res) => {
    const id = decodeURIComponent((req.url ?? '').split('/').pop() ?? '');
    const body = Buffer.from(JSON.stringify({ ...record, id, testset_name: 'caf\u00e9' }));
    if (id.startsWith('latin1-')) body.write('\u00e9', body.indexOf('caf') + 3, 'latin1');
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': body.length + (id.startsWith('cut-') ? 10 : 0),
    });
    // A cut answer: whole JSON, ten bytes short of its length, then the connection closed once the bytes are out.
    if (id.startsWith('cut-')) res.write(body, () => res.socket?.destroy());
    else res.end(body);
  });
}

/** Every file under a folder, relative paths. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

describe('evalkit proxy --record keeps only what a mock should replay', () => {
  it('a cut answer or one that is not UTF-8 is not recorded, and the proxy says why', async () => {
    const target = await anyId();
    const dir = tempDir();
    const watched = await proxyTo(target.url, { recordDir: dir });
    for (const id of ['cut-short', 'latin1-name', 'whole'])
      await fetch(`${watched.proxy.url}/human-evaluations/${id}`)
        .then((res) => res.arrayBuffer())
        .catch(() => undefined);
    await judged(watched, 3);
    await recorded(watched, 3);
    expect(
      watched.recordings.map((event) => ['refused' in event ? event.refused : 'recorded', event.label]).sort(),
    ).toEqual([
      ['recorded', 'GET /human-evaluations/whole'],
      [
        'the answer is not whole (the connection closed before the body was complete)',
        'GET /human-evaluations/cut-short',
      ],
      ['the body is not valid UTF-8', 'GET /human-evaluations/latin1-name'],
    ]);
    expect(filesUnder(dir)).toEqual([join('human-evaluations', 'whole.json'), 'requests.jsonl']);
  });

  it('file names safe on every OS: traversal refused at the door; devices, NUL, length, case refused', async () => {
    const target = await anyId();
    const dir = tempDir();
    const watched = await proxyTo(target.url, { recordDir: dir });
    const atTheDoor = ['..%2f..%2fescape', '%2e%2e', '..', 'a%5c..%5cescape', '%252e%252e%252fescape'];
    for (const id of atTheDoor)
      expect(await rawRequest(watched.proxy.url, `GET /human-evaluations/${id} HTTP/1.1`), id).toMatch(
        /^HTTP\/1\.1 400 /,
      );
    const refused = {
      CON: 'the id names a Windows device (CON): refused, no file can hold it',
      'lpt1.backup': 'the id names a Windows device (lpt1): refused, no file can hold it',
      'a%00b': 'the id is not usable as a file name',
      '.hidden': 'the id is not usable as a file name',
      'trailing%20': 'the id is not usable as a file name',
      [`${'x'.repeat(201)}`]: 'the id is not usable as a file name',
      ABC: 'the id differs from abc, already in the folder, only in case (one file on macOS, Windows)',
    };
    await fetch(`${watched.proxy.url}/human-evaluations/abc`).then((res) => res.arrayBuffer());
    for (const id of Object.keys(refused))
      await fetch(`${watched.proxy.url}/human-evaluations/${id}`).then((res) => res.arrayBuffer());
    await recorded(watched, 1 + Object.keys(refused).length);
    const said = Object.fromEntries(
      watched.recordings.map((event) => [
        event.label.replace('GET /human-evaluations/', ''),
        'refused' in event ? event.refused : 'recorded',
      ]),
    );
    expect(said.abc).toBe('recorded');
    for (const [id, why] of Object.entries(refused))
      expect(said[id], id).toMatch(new RegExp(`^${why.replace(/[()]/g, '\\$&')}`));
    expect(filesUnder(dir)).toEqual([join('human-evaluations', 'abc.json'), 'requests.jsonl']);
  });
});
