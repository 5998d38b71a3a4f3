import { operationIds, operationLabel } from '../../api/operations.js';
import { profiles } from '../../generators/index.js';
import { eraNames, evaluationStates } from '../../generators/vocabulary.js';
import type { MockAnswer } from '../core/request-answer.js';
import { faults } from '../core/faults.js';
import { scenarioCodes } from '../core/scenario-answers.js';
import type { ScenarioKey } from '../core/scenarios.js';
import { dashboardScript, type DashboardConfig } from './dashboard-script.js';

/** Each scenario key's control on the dashboard: a list of its values, or free text the mock checks on PATCH. */
const controls: Record<ScenarioKey, DashboardConfig['controls'][string]> = {
  code: scenarioCodes,
  state: evaluationStates,
  latency: 'text',
  fault: faults,
  nullable: ['true', 'false'],
  strictNulls: ['true', 'false'],
  profile: profiles,
  seed: 'text',
  now: 'text',
  era: eraNames,
  eraDates: ['true', 'false'],
};

const style = `
:root { font: 14px/1.4 system-ui, sans-serif; color: #1d2430; background: #f6f7f9; }
body { margin: 0; }
header { display: flex; gap: 1.5em; align-items: baseline; padding: .6em 1em; background: #1d2430; color: #fff; }
header h1 { font-size: 1.1em; margin: 0; }
header a { color: #9cc8ff; }
main { display: grid; grid-template-columns: minmax(22em, 2fr) 3fr; gap: 1em; padding: 1em; align-items: start; }
.column { display: grid; gap: 1em; min-width: 0; }
.requests { max-height: 45vh; overflow: auto; }
section { background: #fff; border: 1px solid #dde1e7; border-radius: 6px; padding: .6em .8em; min-width: 0; }
h2 { font-size: 1em; margin: .2em 0 .6em; }
table { border-collapse: collapse; width: 100%; }
td, th { text-align: left; padding: .2em .4em; border-bottom: 1px solid #eef0f3; font-variant-numeric: tabular-nums; }
#requests tbody tr { cursor: pointer; }
#requests tbody tr:hover, #requests tbody tr.selected { background: #eaf2ff; }
.s2 { color: #17803d; } .s4 { color: #b25e00; } .s5 { color: #c62828; font-weight: 600; }
pre {
  background: #f3f4f6; padding: .5em; overflow: auto; max-height: 22em; white-space: pre-wrap; word-break: break-all;
  margin: .2em 0 .6em;
}
fieldset { border: 1px solid #dde1e7; border-radius: 4px; margin: 0 0 .6em; }
label { display: inline-block; margin: .2em .8em .2em 0; }
input[type=text] { width: 8em; }
textarea { width: 100%; min-height: 8em; font-family: ui-monospace, monospace; }
.problem { color: #c62828; }
.muted { color: #6b7280; }
`;

/** The script's text: its function, called with the page's window (typed and checked in dashboard-script.ts). */
const script = `(${dashboardScript.toString()})(window);`;

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
<a href="/__evalkit/openapi.json">OpenAPI document</a><a href="/__evalkit/requests">journal (JSON)</a></header>
<main>
<div class="column">
<section class="requests">
<h2>Requests <button id="clear">Clear</button> <span id="journal-status" class="problem"></span></h2>
<table id="requests"><thead><tr><th>time</th><th>method</th><th>path</th><th>status</th><th>ms</th></tr></thead>
<tbody id="request-rows"></tbody></table>
</section>
<section>
<h2>Scenario per operation</h2>
<p class="muted">Empty fields follow the server scenario; a request's Prefer header still overrides every key.</p>
<div id="scenario-controls"></div>
<p id="scenario-status" class="muted"></p>
</section>
<section>
<h2>Scenario in force (the --scenarios file's shape)</h2>
<textarea id="scenario-json" spellcheck="false"></textarea>
<p><button id="put-json">Put this scenario</button> <button id="restore">Restore the start-up scenario</button></p>
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
export async function dashboardPage(journalSize: number): Promise<MockAnswer> {
  const operations = operationIds.map((id) => ({ id, label: operationLabel(id) }));
  const config: DashboardConfig = { operations, controls, journalSize };
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
