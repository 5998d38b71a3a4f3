import { operationIds, operationLabel, operationTable } from '../../api/operations.js';
import { lifecycleStates } from '../../generators/vocabulary.js';
import type { MockAnswer } from '../core/request-answer.js';
import type { ScenarioFileData } from '../core/scenario-book.js';
import { listedValues } from '../core/scenarios.js';
import type { DashboardConfig } from './dashboard-config.js';
import { dashboardPageScript } from './dashboard-page-script.js';

const style = `
:root { font: 14px/1.4 system-ui, sans-serif; color: #1d2430; background: #f6f7f9; }
body { margin: 0; }
[hidden] { display: none !important; }
header {
  display: flex; flex-wrap: wrap; gap: .4em 1.5em; align-items: baseline; padding: .6em 1em; background: #1d2430;
  color: #fff;
}
header h1 { font-size: 1.1em; margin: 0; }
header a { color: #9cc8ff; }
/* On the dark header: light enough to read (WCAG AA), the live state in green. */
header .muted { color: #c9d1dc; }
#live.on { color: #8ee6a8; }
#scenario-banner {
  display: flex; flex-wrap: wrap; gap: .4em 1em; align-items: center; padding: .5em 1em; background: #fff4d6;
  border-bottom: 1px solid #e6c65c; color: #4a3800;
}
#scenario-banner strong { margin-right: .3em; }
/* Wide: the list takes the larger share (a day of polling is read there), the details stay in view beside it. */
main {
  display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1em; padding: 1em; align-items: start;
}
#details { position: sticky; top: 1em; max-height: calc(100vh - 2em); overflow: auto; }
/* Narrow: one column, the selected request's details right under the list, the scenario controls after them. */
@media (max-width: 1000px) {
  main { grid-template-columns: minmax(0, 1fr); }
  main > .column { display: contents; }
  .requests { order: 1; } #details { order: 2; position: static; max-height: none; }
  .column > section:not(.requests) { order: 3; }
}
.column { display: grid; gap: 1em; min-width: 0; }
.request-list { max-height: 45vh; overflow: auto; }
#requests thead th { position: sticky; top: 0; background: #fff; }
section { background: #fff; border: 1px solid #dde1e7; border-radius: 6px; padding: .6em .8em; min-width: 0; }
h2 { font-size: 1em; margin: .2em 0 .6em; }
table { border-collapse: collapse; width: 100%; }
td, th { text-align: left; padding: .2em .4em; border-bottom: 1px solid #eef0f3; font-variant-numeric: tabular-nums; }
#requests { table-layout: fixed; }
#requests th, #requests td { overflow-wrap: anywhere; vertical-align: top; }
/*
 * A path on one line, cut with an ellipsis at its start (the whole path in its title and in the details): its end is
 * the id, which tells one polled record from another. The cell runs right to left so the cut falls at the left; the
 * path itself stays left to right, isolated.
 */
#requests td.path {
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis; overflow-wrap: normal; direction: rtl;
  text-align: left;
}
#requests td.path > span { direction: ltr; unicode-bidi: isolate; }
#requests .c-time { width: 7.2em; } #requests .c-method { width: 4.6em; } #requests .c-status { width: 6.4em; }
#requests .c-state { width: 8.4em; } #requests td.state { overflow-wrap: normal; white-space: nowrap; }
#requests .fault { display: block; overflow-wrap: normal; }
#requests .c-ms { width: 4.6em; text-align: right; white-space: nowrap; }
#requests td:last-child { text-align: right; white-space: nowrap; }
.through { display: inline-block; padding: 0 .35em; border-radius: 3px; font-size: .85em; white-space: nowrap;
  background: #e8e0ff; color: #3d2a80; }
.filters { display: flex; flex-wrap: wrap; gap: .3em .8em; align-items: center; margin: 0 0 .4em; }
.filters label { margin: 0; }
.filters input[type=search] { width: 9em; }
#list-count { margin-left: auto; }
#requests tbody tr { cursor: pointer; }
#requests tbody tr:hover, #requests tbody tr.selected { background: #eaf2ff; }
/* 4.5:1 (WCAG AA) on a selected or hovered row's blue as on white: the lighter green and orange fell to 4.2-4.4. */
.s2 { color: #157a3a; } .s4 { color: #9a4f00; } .s5 { color: #c62828; font-weight: 600; }
pre {
  background: #f3f4f6; padding: .5em; overflow: auto; max-height: 22em; white-space: pre-wrap; word-break: break-all;
  margin: .2em 0 .6em;
}
fieldset { border: 1px solid #dde1e7; border-radius: 4px; margin: 0 0 .6em; }
label { display: inline-block; margin: .2em .8em .2em 0; }
.apply-status { margin-left: .6em; }
input[type=text] { width: 8em; }
textarea { width: 100%; min-height: 8em; font-family: ui-monospace, monospace; }
.problem { color: #c62828; }
.muted { color: #6b7280; }
`;

/** The script's text: mock/control/page/dashboard-page.ts, bundled (scripts/dashboard-page.ts). */
const script = dashboardPageScript;

function page(config: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>evalkit mock: control room</title>
<style>${style}</style>
</head>
<body>
<header><h1>evalkit mock: control room</h1><span id="live" class="muted">connecting…</span>
<a href="/__evalkit/openapi.json">OpenAPI document</a><a href="/__evalkit/requests">journal (JSON)</a>
<span class="muted">times in UTC</span></header>
<div id="scenario-banner" role="status" hidden><span><strong>Run-time scenario in force:</strong>
<span id="scenario-banner-text"></span></span>
<button id="restore-defaults" title="Put the start-up scenario (flags and --scenarios file) back in force">
Restore defaults</button></div>
<main>
<div class="column">
<section class="requests">
<h2>Requests <button id="clear">Clear</button> <span id="journal-status" class="problem"></span></h2>
<div class="filters" role="search">
<span><label for="filter-status">Status</label> <select id="filter-status"><option value="">all</option>
<option value="2">2xx</option><option value="3">3xx</option><option value="4">4xx</option><option value="5">5xx</option>
</select></span>
<span><label for="filter-operation">Operation</label> <select id="filter-operation"><option value="">all</option>
</select></span>
<span><label for="filter-session">Session</label> <select id="filter-session"><option value="">all</option>
<option value="-">the server's</option></select></span>
<span><label for="filter-path">Path</label> <input type="search" id="filter-path" placeholder="text in the path"></span>
<label><input type="checkbox" id="filter-problems"> only problems</label>
<button id="pause" aria-pressed="false">Pause</button>
<span id="list-count" class="muted" aria-live="polite"></span>
</div>
<div class="request-list">
<table id="requests"><thead><tr><th class="c-time">time (UTC)</th><th class="c-method">method</th>
<th class="c-path">path</th><th class="c-status">status</th><th class="c-state">state</th><th class="c-ms">ms</th>
</tr></thead>
<tbody id="request-rows"></tbody></table>
</div>
</section>
<section>
<h2>Scenario per operation</h2>
<p class="muted">Empty fields follow the server scenario; a request's Prefer header still overrides every key.</p>
<div id="scenario-controls"></div>
</section>
<section>
<h2>Sessions <button id="refresh-sessions">Refresh</button></h2>
<p class="muted">Tests sharing this mock, each by X-Evalkit-Session, the evalkit-session cookie or /__sessions/NAME:
its own rules over the server scenario.</p>
<div id="sessions"></div>
</section>
<section>
<h2>Scenario in force (the --scenarios file's shape)</h2>
<textarea id="scenario-json" spellcheck="false"></textarea>
<p><button id="put-json">Put this scenario</button> <button id="restore">Restore the start-up scenario</button>
<span id="put-json-status" class="apply-status muted" role="status"></span></p>
<h2>Fixtures</h2>
<div id="fixtures"></div>
</section>
</div>
<section id="details">
<p class="muted">Select a request to see its headers, bodies, problems and a curl command.</p>
</section>
</main>
<script type="application/json" id="evalkit-config">${config}</script>
<script>${script}</script>
</body>
</html>
`;
}

/** A CSP source of a text's SHA-256, by Web Crypto: the control room runs wherever the core does. */
async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `'sha256-${btoa(String.fromCharCode(...digest))}'`;
}

/**
 * The dashboard: one self-contained page (inline style and script, no CDN, nothing to build). Everything a client
 * sent reaches the page through textContent only, and the Content-Security-Policy runs no script but the page's own
 * (by its hash), so even a missed escape could not execute.
 */
export async function dashboardPage(journalSize: number, startup: ScenarioFileData): Promise<MockAnswer> {
  const operations = operationIds.map((id) => {
    const { method, path, response } = operationTable[id];
    // Where a success answer's records keep their state: a list's first record for an operation that answers a list.
    const states = (lifecycleStates as Partial<Record<string, { pointer: string }>>)[response.resource];
    const statePointer = states && `${response.array ? '/0' : ''}${states.pointer}`;
    return { id, label: operationLabel(id), method, path, ...(statePointer && { statePointer }) };
  });
  const config: DashboardConfig = { operations, controls: listedValues, journalSize, startup };
  const policy = [
    "default-src 'none'",
    `script-src ${await sha256(script)}`,
    `style-src ${await sha256(style)}`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ];
  return {
    status: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      // With the control room's own (no-store, nosniff, X-Frame-Options: DENY, no referrer: cross-site.ts).
      'Content-Security-Policy': policy.join('; '),
    },
    // `<` is escaped so no value can close the JSON script element.
    body: new TextEncoder().encode(page(JSON.stringify(config).replace(/</g, '\\u003c'))),
  };
}
