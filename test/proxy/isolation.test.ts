import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closeAll, failedIds, judged, plain, proxyTo } from './helpers.js';
import { removeTempDirs } from '../helpers/temp-dirs.js';

/** Targets that stall, go silent, cut or flood one exchange: the others go on as if nothing happened. */

afterEach(closeAll);
afterAll(removeTempDirs);

describe('evalkit proxy isolates each exchange', () => {
  it('a silent, a stalled, a cut and a huge answer delay no other client', async () => {
    const held: Array<() => void> = [];
    const target = await plain((req, res) => {
      const path = req.url ?? '';
      if (path.endsWith('/silent')) return void held.push(() => res.destroy());
      res.setHeader('content-type', 'application/json');
      if (path.endsWith('/stalled')) return void res.write('{"id":', () => held.push(() => res.destroy()));
      if (path.endsWith('/cut')) return void res.write('{"id":', () => res.socket?.destroy());
      if (path.endsWith('/huge')) {
        // Streams for as long as the client reads: far past the cap, never all at once.
        const more = (): void => {
          while (res.write(Buffer.alloc(64 * 1024, 0x20)));
          res.once('drain', more);
        };
        held.push(() => res.destroy());
        return more();
      }
      res.writeHead(404).end(JSON.stringify({ detail: 'Evaluation not found' }));
    });
    const watched = await proxyTo(target.url, { timeoutMs: 60_000 });
    const settled: string[] = [];
    const pending = ['silent', 'stalled', 'cut', 'huge'].map((name) =>
      fetch(`${watched.proxy.url}/human-evaluations/${name}`)
        .then(async (res) => {
          const reader = res.body?.getReader();
          // Reads the huge one a little, then stops reading: the target is held back, the proxy keeps nothing.
          for (let chunk = 0; chunk < (name === 'huge' ? 8 : 1_000_000); chunk++)
            if ((await reader?.read())?.done !== false) break;
        })
        .catch(() => undefined)
        .finally(() => settled.push(name)),
    );
    for (let tries = 0; (target.hits() < 4 || settled.length < 2) && tries < 500; tries++)
      await new Promise((resolve) => setTimeout(resolve, 10));

    const fast = await fetch(`${watched.proxy.url}/human-evaluations/fast`);
    expect(fast.status).toBe(404);
    expect(await fast.json()).toEqual({ detail: 'Evaluation not found' });
    expect(settled.sort()).toEqual(['cut', 'huge']);
    await judged(watched, 2);
    expect(failedIds(watched.proxy)).toEqual(['fetch.transport']);

    for (const release of held) release();
    await Promise.all(pending);
  });
});
