import { createHash } from 'node:crypto';
import { profiles } from '../../generators/index.js';
import { evaluationStates } from '../../generators/vocabulary.js';
import type { MockAnswer } from '../core/exchange.js';
import { faults } from '../core/faults.js';
import { operations } from '../core/operations.js';
import { scenarioCodes } from '../core/scenario-answers.js';
import type { ScenarioKey } from '../core/scenarios.js';

/** Each scenario key's control on the dashboard: a list of its values, or free text checked by the mock on PUT. */
const controls: Record<ScenarioKey, readonly (string | number)[] | 'text'> = {
  code: scenarioCodes,
  state: evaluationStates,
  latency: 'text',
  fault: faults,
  nullable: ['true', 'false'],
  profile: profiles,
  seed: 'text',
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
pre { background: #f3f4f6; padding: .5em; overflow: auto; max-height: 22em; white-space: pre-wrap; word-break: break-all; margin: .2em 0 .6em; }
fieldset { border: 1px solid #dde1e7; border-radius: 4px; margin: 0 0 .6em; }
label { display: inline-block; margin: .2em .8em .2em 0; }
input[type=text] { width: 8em; }
textarea { width: 100%; min-height: 8em; font-family: ui-monospace, monospace; }
.problem { color: #c62828; }
.muted { color: #6b7280; }
`;

const script = `
'use strict';
const config = JSON.parse(document.getElementById('evalkit-config').textContent);
const byId = (id) => document.getElementById(id);
const entries = new Map();
let selected;
let scenario;

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

async function call(method, path, body) {
  const init = { method, headers: body === undefined ? {} : { 'Content-Type': 'application/json' } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await fetch('/__evalkit' + path, init);
  const text = await res.text();
  let data = null;
  try { data = text === '' ? null : JSON.parse(text); } catch { data = text; }
  return { status: res.status, data };
}

function detailText(data) {
  if (data && typeof data.detail === 'string') return data.detail;
  if (data && Array.isArray(data.detail)) return data.detail.map((d) => d.loc.join('.') + ': ' + d.msg).join('; ');
  return JSON.stringify(data);
}

function row(entry) {
  const tr = document.createElement('tr');
  tr.dataset.id = String(entry.id);
  tr.append(element('td', entry.time.slice(11, 23)), element('td', entry.method), element('td', entry.path),
    element('td', entry.status + (entry.fault ? ' (' + entry.fault + ')' : ''), 's' + String(entry.status)[0]),
    element('td', entry.duration_ms.toFixed(1)));
  tr.addEventListener('click', () => show(entry.id));
  return tr;
}

function addEntry(entry) {
  if (entries.has(entry.id)) return;
  entries.set(entry.id, entry);
  const body = byId('request-rows');
  const newer = [...body.children].find((tr) => Number(tr.dataset.id) < entry.id);
  body.insertBefore(row(entry), newer ?? null);
  while (body.children.length > config.journalSize) {
    const last = body.lastElementChild;
    entries.delete(Number(last.dataset.id));
    last.remove();
  }
}

function block(title, value) {
  const wrap = document.createDocumentFragment();
  wrap.append(element('h3', title), element('pre', typeof value === 'string' ? value : JSON.stringify(value, null, 2)));
  return wrap;
}

function bodyBlock(title, part) {
  const note = part.body_truncated ? ' (first part of ' + part.body_bytes + ' bytes)' : '';
  return block(title + note, part.body === null ? '(none)' : part.body);
}

function show(id) {
  const entry = entries.get(id);
  if (!entry) return;
  selected = id;
  for (const tr of byId('request-rows').children) tr.classList.toggle('selected', Number(tr.dataset.id) === id);
  const panel = byId('details');
  panel.replaceChildren(element('h2', entry.method + ' ' + entry.path + ' → ' + entry.status));
  panel.append(element('p', entry.time + ', ' + entry.duration_ms + ' ms' + (entry.fault ? ', fault ' + entry.fault : ''), 'muted'));
  const applied = entry.scenario ? Object.entries(entry.scenario).map(([k, v]) => k + '=' + v).join(', ') : '(none: refused before routing)';
  panel.append(element('p', 'Scenario applied: ' + applied));
  if (entry.problems.length > 0) {
    const table = element('table');
    table.id = 'problems';
    table.append(element('caption', entry.problems.length + ' problem(s): why the mock answered ' + entry.status));
    for (const problem of entry.problems) {
      const tr = document.createElement('tr');
      tr.append(element('td', problem.loc.join('.'), 'problem'), element('td', problem.msg), element('td', problem.type, 'muted'));
      table.append(tr);
    }
    panel.append(table);
  }
  const copy = element('button', 'Copy as curl');
  copy.id = 'copy-curl';
  copy.addEventListener('click', () => navigator.clipboard.writeText(entry.curl).then(
    () => (copy.textContent = 'Copied'), () => (copy.textContent = 'Select the command below to copy it')));
  panel.append(copy, element('pre', entry.curl));
  panel.append(block('Request headers', entry.request.headers), bodyBlock('Request body', entry.request));
  panel.append(block('Response headers', entry.response.headers), bodyBlock('Response body', entry.response));
}

async function loadRequests() {
  const { status, data } = await call('GET', '/requests');
  if (status !== 200) {
    byId('journal-status').textContent = detailText(data);
    return;
  }
  for (const entry of data.requests.reverse()) addEntry(entry);
}

function renderScenario(data) {
  scenario = data;
  byId('scenario-json').value = JSON.stringify(data, null, 2);
  for (const operation of config.operations) {
    const values = data.operations[operation] || {};
    for (const key of Object.keys(config.controls)) byId(operation + '-' + key).value = values[key] === undefined ? '' : String(values[key]);
  }
}

function status(text, failed) {
  const line = byId('scenario-status');
  line.textContent = text;
  line.className = failed ? 'problem' : 'muted';
}

async function put(data) {
  const { status: code, data: answer } = await call('PUT', '/scenario', data);
  if (code !== 200) return status('Refused (' + code + '): ' + detailText(answer), true);
  renderScenario(answer);
  status('Scenario in force since ' + new Date().toLocaleTimeString(), false);
}

function operationControls(operation) {
  const set = element('fieldset');
  set.append(element('legend', operation));
  for (const [key, choices] of Object.entries(config.controls)) {
    const label = element('label', key + ' ');
    let input;
    if (choices === 'text') {
      input = document.createElement('input');
      input.type = 'text';
      input.placeholder = key === 'latency' ? 'MS or MIN-MAX' : '';
    } else {
      input = document.createElement('select');
      input.append(element('option', '(server)'));
      input.firstChild.value = '';
      for (const choice of choices) input.append(element('option', choice));
    }
    input.id = operation + '-' + key;
    label.append(input);
    set.append(label);
  }
  const apply = element('button', 'Apply to ' + operation);
  apply.id = operation + '-apply';
  apply.addEventListener('click', () => {
    const values = {};
    for (const key of Object.keys(config.controls)) {
      const value = byId(operation + '-' + key).value.trim();
      if (value !== '') values[key] = value;
    }
    const next = structuredClone(scenario);
    if (Object.keys(values).length > 0) next.operations[operation] = values;
    else delete next.operations[operation];
    put(next);
  });
  set.append(apply);
  return set;
}

function renderFixtures(data) {
  const panel = byId('fixtures');
  if (data.dir === null) return panel.replaceChildren(element('span', 'No fixtures folder (--fixtures DIR).', 'muted'));
  panel.replaceChildren(element('p', data.fixtures + ' fixture(s) from ' + data.dir + ', loaded ' + data.loaded_at));
  if (data.problems.length > 0) {
    panel.append(element('p', 'Last reload refused at ' + data.failed_at + ', still serving the previous set:', 'problem'));
    const list = element('ul');
    for (const problem of data.problems) list.append(element('li', problem, 'problem'));
    panel.append(list);
  }
}

for (const operation of config.operations) byId('scenario-controls').append(operationControls(operation));
byId('put-json').addEventListener('click', () => {
  let data;
  try { data = JSON.parse(byId('scenario-json').value); } catch { return status('The text is not valid JSON', true); }
  put(data);
});
byId('restore').addEventListener('click', async () => {
  const { data } = await call('DELETE', '/scenario');
  renderScenario(data);
  status('Start-up scenario restored', false);
});
byId('clear').addEventListener('click', () => call('DELETE', '/requests'));

const events = new EventSource('/__evalkit/events');
events.onopen = () => { byId('live').textContent = 'live'; loadRequests(); };
events.onerror = () => { byId('live').textContent = 'reconnecting…'; };
events.onmessage = (event) => addEntry(JSON.parse(event.data));
events.addEventListener('cleared', () => { entries.clear(); byId('request-rows').replaceChildren(); byId('details').replaceChildren(); });
events.addEventListener('scenario', (event) => renderScenario(JSON.parse(event.data)));
events.addEventListener('fixtures', (event) => renderFixtures(JSON.parse(event.data)));
call('GET', '/scenario').then(({ data }) => renderScenario(data));
call('GET', '/fixtures').then(({ data }) => renderFixtures(data));
`;

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
<table id="requests"><thead><tr><th>time</th><th>method</th><th>path</th><th>status</th><th>ms</th></tr></thead><tbody id="request-rows"></tbody></table>
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
<section id="details"><p class="muted">Select a request to see its headers, bodies, problems and a curl command.</p></section>
</main>
<script type="application/json" id="evalkit-config">${config}</script>
<script>${script}</script>
</body>
</html>
`;
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

/**
 * The dashboard: one self-contained page (inline style and script, no CDN, nothing to build). Everything a client
 * sent reaches the page through textContent only, and the Content-Security-Policy runs no script but the page's own
 * (by its hash), so even a missed escape could not execute.
 */
export function dashboardPage(journalSize: number): MockAnswer {
  // `<` is escaped so no value can close the JSON script element.
  const config = JSON.stringify({ operations, controls, journalSize }).replace(/</g, '\\u003c');
  return {
    status: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': `default-src 'none'; script-src ${sha256(script)}; style-src ${sha256(style)}; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    },
    body: new TextEncoder().encode(page(config)),
  };
}
