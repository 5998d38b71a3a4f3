import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../mock/index.js';
import { eventually } from '../mock/control-helpers.js';
import { hasChromium, launchChromium, noChromium } from './chromium.js';

if (!hasChromium) console.warn(`control-cross-site.test.ts: skipped, ${noChromium}`);

let browser: Browser | undefined;
let mock: MockServer | undefined;
let attacker: Server | undefined;
/** The mock's request log: one line per request, `METHOD /path STATUS`, as the server answered it. */
const log: string[] = [];
let mockOrigin = '';
let attackerPort = 0;

beforeAll(async () => {
  if (!hasChromium) return;
  mock = await startMockServer({ port: 0, log: (line) => log.push(line) });
  mockOrigin = new URL(mock.url).origin;
  // The attacker's site: any page will do, what matters is its origin.
  attacker = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><meta charset="utf-8"><title>a page of another site</title><body></body>');
  });
  await new Promise<void>((resolve) => attacker?.listen(0, '127.0.0.1', resolve));
  attackerPort = (attacker.address() as AddressInfo).port;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await mock?.close();
  attacker?.closeAllConnections();
  await new Promise((resolve) => (attacker ? attacker.close(resolve) : resolve(undefined)));
});

/** The few DOM parts the attacking page uses (the build loads no DOM typings), each as lib.dom has it. */
interface PageNode {
  name: string;
  src: string;
  append(node: PageNode): void;
  addEventListener(type: 'load', listener: () => void, options: { once: true }): void;
  submit(): void;
}

/**
 * Everything a page of another origin tries against the control room, run in that page: fetch (cors and no-cors),
 * form posts (text/plain, urlencoded, multipart, with `_method`), a frame of the dashboard, an EventSource. Resolves
 * to what the page could see of each.
 */
async function attack(mock: string): Promise<Record<string, string>> {
  const { document } = globalThis as unknown as { document: { body: PageNode; createElement(tag: string): PageNode } };
  const results: Record<string, string> = {};
  const attempt = async (name: string, run: () => Promise<string>) => {
    try {
      results[name] = await run();
    } catch (error) {
      results[name] = `blocked (${(error as Error).name})`;
    }
  };
  const seen = async (res: Response) => `${res.type} ${res.status} ${await res.text()}`;
  const put = JSON.stringify({ operations: { fetchHumanEvaluation: { code: 500 } } });
  await attempt('cors read', async () => seen(await fetch(`${mock}/__evalkit/requests`)));
  await attempt('no-cors read', async () => seen(await fetch(`${mock}/__evalkit/requests`, { mode: 'no-cors' })));
  await attempt('cors PUT', async () =>
    seen(
      await fetch(`${mock}/__evalkit/scenario`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: put,
      }),
    ),
  );
  await attempt('cors DELETE', async () => seen(await fetch(`${mock}/__evalkit/requests`, { method: 'DELETE' })));
  for (const [name, init] of [
    ['no-cors text/plain', { headers: { 'Content-Type': 'text/plain' }, body: put }],
    ['no-cors untyped', { body: new Blob([put]) }],
    ['no-cors override', { headers: { 'X-HTTP-Method-Override': 'PUT' }, body: put }],
  ] as Array<[string, RequestInit]>)
    await attempt(name, async () =>
      seen(await fetch(`${mock}/__evalkit/scenario?_method=PUT`, { ...init, method: 'POST', mode: 'no-cors' })),
    );
  await attempt('no-cors clear', async () =>
    seen(await fetch(`${mock}/__evalkit/requests?_method=DELETE`, { method: 'POST', mode: 'no-cors' })),
  );
  const frame = (name: string) => {
    const element = document.createElement('iframe');
    element.name = name;
    document.body.append(element);
    return element;
  };
  const loaded = (element: PageNode) =>
    new Promise<string>((resolve) => element.addEventListener('load', () => resolve('loaded'), { once: true }));
  for (const [name, action, enctype, field, value] of [
    ['form text/plain', '/__evalkit/scenario?_method=PUT', 'text/plain', put.slice(0, -1) + ',"x":"', '"}'],
    ['form urlencoded', '/__evalkit/requests?_method=DELETE', 'application/x-www-form-urlencoded', 'a', 'b'],
    ['form multipart', '/__evalkit/scenario', 'multipart/form-data', 'scenario', put],
  ] as const) {
    await attempt(name, () => {
      const target = frame(`target of ${name}`);
      const form = document.createElement('form');
      Object.assign(form, { method: 'POST', action: `${mock}${action}`, enctype, target: target.name });
      const input = document.createElement('input');
      Object.assign(input, { name: field, value });
      form.append(input);
      document.body.append(form);
      const done = loaded(target);
      form.submit();
      return done;
    });
  }
  await attempt('frame', () => {
    const dashboard = frame('dashboard');
    const done = loaded(dashboard);
    dashboard.src = `${mock}/__evalkit/`;
    return done;
  });
  await attempt(
    'event source',
    () =>
      new Promise((resolve) => {
        const source = new EventSource(`${mock}/__evalkit/events`);
        source.onmessage = (event) => {
          source.close();
          resolve(`read ${String(event.data)}`);
        };
        source.onerror = () => {
          source.close();
          resolve('error');
        };
      }),
  );
  return results;
}

async function scenarioInForce(): Promise<unknown> {
  return (await fetch(`${mockOrigin}/__evalkit/scenario`)).json();
}

async function journalPaths(): Promise<string[]> {
  const { requests } = (await (await fetch(`${mockOrigin}/__evalkit/requests`)).json()) as {
    requests: Array<{ path: string }>;
  };
  return requests.map((entry) => entry.path);
}

/** Runs the attack from a page at `pageUrl`: what it saw, and the mock's answers to its control-room requests. */
async function attackFrom(pageUrl: string): Promise<{ results: Record<string, string>; answered: string[] }> {
  const page: Page = await (browser as Browser).newPage();
  await page.goto(pageUrl);
  const from = log.length;
  const results = await page.evaluate(attack, mockOrigin);
  // A frame's contents, read through the browser itself: the dashboard must not be in one.
  for (const frame of page.frames().filter((frame) => frame !== page.mainFrame()))
    expect(await frame.locator('#evalkit-config').count(), frame.url()).toBe(0);
  await page.close();
  // The log line is written when the connection is done with the request: wait for each one the page made.
  const answered = await eventually(async () => {
    const lines = log.slice(from).filter((line) => line.includes(' /__evalkit'));
    expect(lines.length).toBeGreaterThanOrEqual(12);
    return lines;
  });
  return { results, answered };
}

describe.skipIf(!hasChromium)('a page of another origin against the control room, in Chromium', () => {
  it('can neither read the journal nor change the scenario; the mock refuses each of its requests', async () => {
    expect((await fetch(`${mock?.url}/human-evaluations/seen-before`)).status).toBe(200);
    const before = await scenarioInForce();

    // localhost:OTHER against 127.0.0.1:PORT: another site.
    const crossSite = await attackFrom(`http://localhost:${attackerPort}/`);
    for (const [name, seen] of Object.entries(crossSite.results)) {
      expect(seen, name).not.toContain('seen-before');
      expect(seen, name).not.toMatch(/^(basic|cors) 2/);
    }
    expect(crossSite.results['cors read']).toMatch(/^blocked/);
    expect(crossSite.results['event source']).toBe('error');
    for (const line of crossSite.answered) expect(line, 'answered to the page of another site').toMatch(/ 4\d\d /);

    // 127.0.0.1:OTHER: the same site, another origin. Its reads are the browser's to block; its writes are refused.
    const sameSite = await attackFrom(`http://127.0.0.1:${attackerPort}/`);
    for (const [name, seen] of Object.entries(sameSite.results)) {
      expect(seen, name).not.toContain('seen-before');
      expect(seen, name).not.toMatch(/^(basic|cors) 2/);
    }
    for (const line of sameSite.answered.filter((line) => !/^(GET|OPTIONS) /.test(line)))
      expect(line, 'a write of the page of another origin').toMatch(/ 4\d\d /);

    expect(await scenarioInForce()).toEqual(before);
    expect(await journalPaths()).toEqual(['/human-evaluations/seen-before']);
  }, 120_000);

  it('still works as the dashboard, loaded from the mock itself', async () => {
    const page = await (browser as Browser).newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`${mockOrigin}/__evalkit/`);
    await page.locator('#live', { hasText: 'live' }).waitFor();
    await fetch(`${mock?.url}/human-evaluations/from-outside`);
    await page.locator('#request-rows tr', { hasText: '/human-evaluations/from-outside' }).waitFor();
    await page.selectOption('#fetchHumanEvaluation-code', '500');
    await page.click('#fetchHumanEvaluation-apply');
    await page.locator('#fetchHumanEvaluation-apply-status', { hasText: 'Scenario in force' }).waitFor();
    expect(await scenarioInForce()).toMatchObject({ operations: { fetchHumanEvaluation: { code: 500 } } });
    await page.click('#restore');
    await eventually(async () => expect(await scenarioInForce()).toMatchObject({ operations: {} }));
    await page.click('#clear');
    await eventually(async () => expect(await journalPaths()).toEqual([]));
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
