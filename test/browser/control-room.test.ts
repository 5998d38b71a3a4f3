import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningCli } from '../helpers/cli.js';
import { startMockCli } from '../mock/control-helpers.js';
import { hasChromium, launchChromium, noChromium } from './chromium.js';

/** Screenshots a person looks at to judge the layout: test artifacts, gitignored with the rest of reports/. */
const screenshots = new URL('../../reports/screenshots/', import.meta.url).pathname;
if (!hasChromium) console.warn(`control-room.test.ts: skipped, ${noChromium}`);

let mock: RunningCli | undefined;
let browser: Browser | undefined;
let api = '';
let room = '';

beforeAll(async () => {
  if (!hasChromium) return;
  ({ mock, api, room } = await startMockCli(['--quiet']));
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  mock?.kill();
});

/**
 * Tabs the tests are done with, each loaded afresh by the next `open` (the dashboard keeps no state in the browser):
 * a new tab costs Chromium a renderer and a context, more than the test that uses it.
 */
const done: Page[] = [];

async function open(width = 1440): Promise<Page> {
  const page = done.pop() ?? (await (browser as Browser).newPage());
  await page.setViewportSize({ width, height: 900 });
  await page.goto(room);
  await page.locator('#live', { hasText: 'live' }).waitFor();
  return page;
}

/** Puts tabs back for the next test, on a blank page: an idle dashboard would go on rendering the journal's events. */
async function release(...pages: Page[]): Promise<void> {
  await Promise.all(pages.map((page) => page.goto('about:blank')));
  done.push(...pages);
}

function scenario(method: 'PATCH' | 'DELETE', body?: unknown): Promise<Response> {
  return fetch(`${api}/__evalkit/scenario`, {
    method,
    ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
}

/** Sends requests the mock answers 200, 404 and 422, each with a path the test can find. */
async function mix(tag: string): Promise<void> {
  expect((await fetch(`${api}/human-evaluations/${tag}-ok`)).status).toBe(200);
  expect((await fetch(`${api}/${tag}-missing`)).status).toBe(404);
  const invalid = await fetch(`${api}/evaluations?${tag}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{"app_id": 1}',
  });
  expect(invalid.status).toBe(422);
}

/**
 * Text on the page below WCAG AA's 4.5:1 against the background behind it (the nearest one painted), as
 * `colour on background (ratio): text`. Run in the page, where the DOM is: the build has no DOM typings.
 */
const lowContrast = `(() => {
  const channels = (text) => text.match(/[\\d.]+/g).map(Number);
  const luminance = (text) => {
    const [r, g, b] = channels(text).slice(0, 3).map((c) => c / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const painted = (node) => {
    for (let at = node; at; at = at.parentElement) {
      const colour = getComputedStyle(at).backgroundColor;
      if ((channels(colour)[3] ?? 1) > 0) return colour;
    }
    return 'rgb(255, 255, 255)';
  };
  return [...document.querySelectorAll('body *')]
    .filter((node) => node.checkVisibility() && [...node.childNodes].some((c) => c.nodeType === 3 && c.data.trim()))
    .map((node) => {
      const [colour, behind] = [getComputedStyle(node).color, painted(node)];
      const [a, b] = [luminance(colour), luminance(behind)].sort((x, y) => y - x);
      const ratio = (a + 0.05) / (b + 0.05);
      return ratio >= 4.5 ? '' : colour + ' on ' + behind + ' (' + ratio.toFixed(2) + '): ' + node.textContent.trim();
    })
    .filter(Boolean);
})()`;

/** The status column of the rows shown. */
async function shownStatuses(page: Page): Promise<string[]> {
  return page.locator('#request-rows tr:not([hidden]) td:nth-child(4)').allTextContents();
}

describe.skipIf(!hasChromium)('the control room through a working day, in headless Chromium', () => {
  it('a run-time scenario shows a banner naming it; Restore defaults clears it here and in another tab', async () => {
    const [page, other] = [await open(), await open()];
    const banner = page.locator('#scenario-banner');
    expect(await banner.isHidden()).toBe(true);

    expect((await scenario('PATCH', { operations: { fetchHumanEvaluation: { code: 500 } } })).status).toBe(200);
    await banner.waitFor({ state: 'visible' });
    expect(await banner.textContent()).toContain('Run-time scenario in force:');
    expect(await page.locator('#scenario-banner-text').textContent()).toBe(
      'GET /human-evaluations/{evaluation_id}: code=500',
    );
    await other.locator('#scenario-banner').waitFor({ state: 'visible' });

    await page.getByRole('button', { name: 'Restore defaults' }).click();
    await banner.waitFor({ state: 'hidden' });
    // The other tab hears of the restore on the event stream.
    await other.locator('#scenario-banner').waitFor({ state: 'hidden' });
    expect((await fetch(`${api}/human-evaluations/after-restore`)).status).toBe(200);

    // A scenario set before the page opened shows at once, and one equal to the start-up scenario is none.
    await scenario('PATCH', { humanEvaluations: { 'held-id': { state: 'failed' } } });
    const late = await open();
    await late
      .locator('#scenario-banner-text', { hasText: 'human evaluation held-id: state=EVALUATION_FAILED' })
      .waitFor();
    await scenario('PATCH', { humanEvaluations: { 'held-id': null } });
    await late.locator('#scenario-banner').waitFor({ state: 'hidden' });
    await release(page, other, late);
  }, 120_000);

  it('filters by status class, operation, path text and problems', async () => {
    const page = await open();
    await mix('filters');
    await page.locator('#request-rows tr', { hasText: '/filters-missing' }).waitFor();
    await page.locator('#request-rows tr', { hasText: '422' }).first().waitFor();

    await page.getByLabel('Status', { exact: true }).selectOption('4');
    const fours = await shownStatuses(page);
    expect(fours.length).toBeGreaterThanOrEqual(2);
    expect(fours.every((status) => status.startsWith('4'))).toBe(true);
    expect(await page.locator('#request-rows tr:not([hidden])', { hasText: '/filters-ok' }).count()).toBe(0);
    await page.getByLabel('Status', { exact: true }).selectOption('');

    // Search narrows by path text.
    await page.getByLabel('Path', { exact: true }).fill('filters-');
    expect(await page.locator('#request-rows tr:not([hidden]) td:nth-child(3)').allTextContents()).toEqual([
      '/filters-missing',
      '/human-evaluations/filters-ok',
    ]);
    await page.getByLabel('Path', { exact: true }).fill('');

    // The operation: by method and path template; paths of no operation under "other paths".
    await page.getByLabel('Operation', { exact: true }).selectOption('createEvaluations');
    expect(new Set(await page.locator('#request-rows tr:not([hidden]) td:nth-child(2)').allTextContents())).toEqual(
      new Set(['POST']),
    );
    await page.getByLabel('Operation', { exact: true }).selectOption('other');
    expect(await page.locator('#request-rows tr:not([hidden]) td:nth-child(3)').allTextContents()).toContain(
      '/filters-missing',
    );
    await page.getByLabel('Operation', { exact: true }).selectOption('');

    await page.getByLabel('only problems').check();
    const problems = await shownStatuses(page);
    expect(problems.length).toBeGreaterThanOrEqual(2);
    expect(problems.some((status) => status.startsWith('2'))).toBe(false);
    expect(await page.locator('#list-count').textContent()).toMatch(/^\d+ of \d+ shown$/);
    await release(page);
  }, 120_000);

  it('pause holds new entries, counted, and shows them on resume', async () => {
    const page = await open();
    await page.getByRole('button', { name: 'Pause' }).click();
    expect(await page.locator('#pause').getAttribute('aria-pressed')).toBe('true');
    await fetch(`${api}/human-evaluations/while-paused-1`);
    await fetch(`${api}/human-evaluations/while-paused-2`);
    await page.locator('#list-count', { hasText: 'paused, 2 new held' }).waitFor();
    expect(await page.locator('#request-rows tr', { hasText: 'while-paused' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Resume' }).click();
    await page.locator('#request-rows tr', { hasText: 'while-paused-2' }).waitFor();
    expect(await page.locator('#request-rows tr', { hasText: 'while-paused' }).count()).toBe(2);
    expect(await page.locator('#list-count').textContent()).not.toContain('paused');
    // A row opens with the keyboard as with a click.
    await page.locator('#request-rows tr', { hasText: 'while-paused-1' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('#details h2', { hasText: 'while-paused-1' }).waitFor();
    await release(page);
  }, 120_000);

  it('marks an entry a passthrough mock forwarded, and filters on it; one without the field: the mock', async () => {
    await fetch(`${api}/human-evaluations/forwarded-one`);
    await fetch(`${api}/human-evaluations/answered-here`);
    const withheld = {
      body: '<body withheld: 35 bytes, passed through, not kept>',
      body_bytes: 35,
      body_truncated: true,
    };
    const page = await (browser as Browser).newPage();
    // The journal as a `--passthrough` mock gives it: this entry marked, the other one without the field at all.
    await page.route('**/__evalkit/requests', async (route) => {
      const answer = await route.fetch();
      const { requests } = (await answer.json()) as {
        requests: Array<{ path: string; served?: string; response: object }>;
      };
      for (const entry of requests) {
        // As the journal gives a pass-through: no scenario, and the origin's body not kept, only its size.
        if (entry.path.endsWith('forwarded-one'))
          Object.assign(entry, { served: 'passthrough', scenario: null, response: { ...entry.response, ...withheld } });
        else delete entry.served;
      }
      await route.fulfill({ response: answer, json: { requests } });
    });
    await page.goto(room);
    const forwarded = page.locator('#request-rows tr', { hasText: 'forwarded-one' });
    await forwarded.locator('.through', { hasText: 'passed through' }).waitFor();
    expect(await page.locator('#request-rows tr', { hasText: 'answered-here' }).locator('.through').count()).toBe(0);

    await page.getByLabel('Operation', { exact: true }).selectOption('passthrough');
    expect(await page.locator('#request-rows tr:not([hidden]) td:nth-child(3)').allTextContents()).toEqual([
      '/human-evaluations/forwarded-one',
    ]);
    await forwarded.click();
    const details = await page.locator('#details').textContent();
    expect(details).toContain('passed through to the --passthrough origin');
    // Labelled as what it is: no scenario because the mock did not answer it, a body the journal does not keep.
    expect(details).toContain("Scenario applied: (none: passed through, not answered by the mock's operations)");
    expect(details).not.toContain('refused before routing');
    // The body is said to be withheld, with its size, as the entry gives it: not "(none)", nor a claim of its own.
    const heading = page.locator('#details h3', { hasText: 'Response body' });
    expect(await heading.textContent()).toBe(`Response body (${withheld.body_bytes} bytes, not kept whole)`);
    expect(await page.locator('#details h3:has-text("Response body") + pre').textContent()).toBe(withheld.body);
    await page.close();
  }, 120_000);

  it("shows each poll's state in the list, so a record moving under progress reads down the column", async () => {
    const page = await open();
    // Each poll at a moment of its own (a pinned `now`), so the phases do not wait on the clock.
    const poll = (second: number) =>
      fetch(`${api}/human-evaluations/polled-run`, {
        headers: { Prefer: `progress=5000, now=2031-01-01T00:00:${String(second).padStart(2, '0')}Z` },
      });
    for (const second of [0, 5, 10]) await poll(second);
    const rows = page.locator('#request-rows tr', { hasText: 'polled-run' });
    await rows.nth(2).waitFor();
    // Newest first: the three phases of the record, one a row.
    expect(await rows.locator('td.state').allTextContents()).toEqual(['FINISHED', 'STARTED', 'INITIALIZED']);
    await release(page);
  }, 120_000);

  it('says a refused Apply beside its button, in view; the live mark reads on the dark header', async () => {
    const page = await open(800);
    await page.fill('#fetchHumanEvaluation-latency', 'soon');
    await page.click('#fetchHumanEvaluation-apply');
    const said = page.locator('#fetchHumanEvaluation-apply-status');
    await said.filter({ hasText: "scenario key 'latency' accepts MS or MIN-MAX" }).waitFor();
    const [button, message] = await Promise.all([
      page.locator('#fetchHumanEvaluation-apply').boundingBox(),
      said.boundingBox(),
    ]);
    // On the button's line (or the next, on a narrow screen): where the person who clicked is looking.
    expect(Math.abs((message?.y ?? 1e9) - (button?.y ?? 0))).toBeLessThan(3 * (button?.height ?? 0));
    // WCAG AA for normal text: 4.5:1 between the live mark and the header behind it.
    const ratio = (await page.evaluate(`(() => {
      const rgb = (text) => text.match(/\\d+/g).slice(0, 3).map(Number).map((c) => c / 255)
        .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
      const luminance = (text) => { const [r, g, b] = rgb(text); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
      const live = luminance(getComputedStyle(document.getElementById('live')).color);
      const header = luminance(getComputedStyle(document.querySelector('header')).backgroundColor);
      return (Math.max(live, header) + 0.05) / (Math.min(live, header) + 0.05);
    })()`)) as number;
    expect(ratio).toBeGreaterThanOrEqual(4.5);
    await scenario('DELETE');
    await release(page);
  }, 120_000);

  it('every text reads at 4.5:1 against what is behind it, a selected row of each status class too', async () => {
    const page = await open();
    await mix('contrast');
    for (const path of ['/human-evaluations/contrast-ok', '/contrast-missing', '/evaluations']) {
      const row = page.locator('#request-rows tr', { hasText: path }).first();
      await row.click();
      await page.locator('#details h2', { hasText: path }).waitFor();
      expect(await row.getAttribute('class')).toBe('selected');
      expect(await page.evaluate(lowContrast)).toEqual([]);
    }
    await release(page);
  }, 120_000);

  it.each([1440, 800])(
    'no column is clipped and the page does not scroll sideways at %i px',
    async (width) => {
      // Rows that stretch columns: a long path, a fault beside a status, a slow answer, a run-time scenario's banner.
      await fetch(`${api}/human-evaluations/${'a-very-long-identifier-'.repeat(12)}`);
      await fetch(`${api}/human-evaluations/slow`, { headers: { Prefer: 'latency=1100' } });
      await fetch(`${api}/human-evaluations/x`, { headers: { Prefer: 'fault=truncate' } }).catch(() => undefined);
      await scenario('PATCH', { operations: { createEvaluations: { code: 503, latency: '10-20' } } });
      const page = await open(width);
      await page.locator('#request-rows tr', { hasText: 'a-very-long-identifier' }).first().click();
      await page.locator('#scenario-banner').waitFor({ state: 'visible' });
      // Run in the page, where the DOM is: the build has no DOM typings, so the checks are written as text.
      // A path is cut with an ellipsis on purpose, its whole text in the cell's title; nothing else is clipped.
      const clipped = (await page.evaluate(
        `[...document.querySelectorAll('#requests th, #requests td, #scenario-banner, header > *')]
        .filter((cell) => cell.scrollWidth > cell.clientWidth)
        .filter((cell) => !(cell.classList.contains('path') && cell.title === cell.textContent))
        .map((cell) => cell.textContent)`,
      )) as string[];
      expect(clipped).toEqual([]);
      // Each path on one line, however long (its text's boxes all start at one height), and a path cut keeps its end
      // in view, the id that tells one polled record from another (its last character inside the cell).
      const paths = (await page.evaluate(
        `[...document.querySelectorAll('#request-rows tr:not([hidden]) td.path')].map((cell) => {
          const text = cell.querySelector('span')?.firstChild ?? cell.firstChild;
          const whole = document.createRange();
          whole.selectNodeContents(cell);
          const last = document.createRange();
          last.setStart(text, text.data.length - 1);
          last.setEnd(text, text.data.length);
          const [end, box] = [last.getBoundingClientRect(), cell.getBoundingClientRect()];
          return {
            path: cell.title,
            tall: new Set([...whole.getClientRects()].map((rect) => Math.round(rect.top))).size > 1,
            endCut: end.right > box.right + 0.5 || end.left < box.left,
          };
        })`,
      )) as Array<{ path: string; tall: boolean; endCut: boolean }>;
      expect(paths.length).toBeGreaterThan(0);
      expect(paths.filter((cell) => cell.tall).map((cell) => cell.path)).toEqual([]);
      expect(paths.filter((cell) => cell.endCut).map((cell) => cell.path)).toEqual([]);
      if (width === 1440) {
        // The list takes the larger share of a wide screen; the details beside it.
        const share = (await page.evaluate(
          `document.querySelector('.requests').getBoundingClientRect().width /
           document.querySelector('main').getBoundingClientRect().width`,
        )) as number;
        expect(share).toBeGreaterThan(0.55);
      }
      const sideways = await page.evaluate(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      );
      expect(sideways).toBeLessThanOrEqual(0);
      // The ms column shows its whole figure: its cells are as wide as their text at least.
      const ms = await page
        .locator('#request-rows tr', { hasText: '/slow' })
        .first()
        .locator('td')
        .nth(5)
        .textContent();
      expect(ms).toMatch(/^1\d{3}\.\d$/);
      mkdirSync(screenshots, { recursive: true });
      await page.screenshot({ path: join(screenshots, `control-room-${width}.png`) });
      await scenario('DELETE');
      await release(page);
    },
    120_000,
  );
});
