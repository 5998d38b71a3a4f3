/*
 * The dashboard's program, run in the browser: type-checked against the DOM's own typings (tsconfig.page.json) and
 * bundled by esbuild into mock/control/dashboard-page-script.ts (`npm run dashboard`), which the mock serves inline.
 * It reads the mock only through its config element and the control room's routes.
 */
import type { ValidationDetail } from '../../core/errors.js';
import type { ScenarioFileData } from '../../core/scenario-book.js';
import type { FixtureStatus } from '../admin-routes.js';
import type { SessionView } from '../../core/sessions.js';
import type { DashboardConfig } from '../dashboard-config.js';
import type { EntryView, PartView } from '../entry-view.js';

const byId = (id: string): HTMLElement => {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no #${id}`);
  return node;
};
const field = (id: string) => byId(id) as HTMLInputElement;
/** The list's rows, newest first. */
const rows = (): HTMLElement[] => [...byId('request-rows').children] as HTMLElement[];
const checkbox = (id: string) => byId(id) as HTMLInputElement;
const config = JSON.parse(byId('evalkit-config').textContent ?? '{}') as DashboardConfig;
const entries = new Map<number, EntryView>();
/** Entries that arrived while the list was paused, oldest first: shown on resume. */
let held: EntryView[] = [];
let paused = false;

/** An operation's path template as a pattern of a path's end, whatever base path the mock serves it under. */
const operationPaths = config.operations.map((operation) => {
  const pieces = operation.path.split(/\{\w+\}/).map((piece) => piece.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
  return { ...operation, pattern: new RegExp(pieces.join('[^/]+') + '/?$') };
});

/** Who answered: the mock, or the real backend of `--passthrough` (journals without the mark: the mock). */
const passedThrough = (entry: EntryView): boolean => entry.served === 'passthrough';

function operationEntry(entry: EntryView) {
  return operationPaths.find(({ method, pattern }) => method === entry.method && pattern.test(entry.path));
}

function operationOf(entry: EntryView): string {
  return operationEntry(entry)?.id ?? 'other';
}

/**
 * The state the answer shows, short (`STARTED`): what changes from one poll to the next under `progress`, read where
 * the operation's answer keeps it; '' for an answer without one.
 */
function stateOf(entry: EntryView): string {
  const pointer = operationEntry(entry)?.statePointer;
  if (!pointer || entry.status < 200 || entry.status >= 300) return '';
  let node: unknown = entry.response.body;
  for (const token of pointer.slice(1).split('/'))
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[token] : undefined;
  return typeof node === 'string' ? node.replace(/^EVALUATION_/, '') : '';
}

/** Not a plain success: a non-2xx answer, a 422's problems or a fault. */
const isProblem = (entry: EntryView): boolean =>
  entry.status < 200 || entry.status >= 300 || entry.problems.length > 0 || entry.fault !== null;

/** The session filter: '' every request, '-' the server's (no session), else the session of that name. */
function inSession(entry: EntryView, session: string): boolean {
  if (session === '') return true;
  return session === '-' ? entry.session === null : entry.session === session;
}

/** Each session seen in the journal becomes a choice of the session filter, in the order it first appeared. */
const sessionsListed = new Set<string>();
function listSession(entry: EntryView): void {
  if (entry.session === null || sessionsListed.has(entry.session)) return;
  sessionsListed.add(entry.session);
  byId('filter-session').append(option(entry.session, entry.session));
  sessionsSoon();
}

/** The sessions loaded again within a second of a new one appearing, once however many appear meanwhile. */
let sessionsDue = false;
function sessionsSoon(): void {
  if (sessionsDue) return;
  sessionsDue = true;
  window.setTimeout(() => {
    sessionsDue = false;
    void loadSessions();
  }, 1000);
}

/** A session's own rules in words: its scenario, each operation's and each id's, or that it has none. */
function sessionRules({ scenario }: SessionView): string {
  const rules = [
    ruleText(scenario.scenario),
    ...Object.entries(scenario.operations).map(([id, rule]) => id + ': ' + ruleText(rule)),
    ...Object.entries(scenario.humanEvaluations).map(([id, rule]) => id + ': ' + ruleText(rule)),
  ].filter((rule) => rule !== '');
  return rules.length > 0 ? rules.join('; ') : 'the server scenario';
}

/** The sessions the mock keeps, most recently used first, each with its rules and a button that clears them. */
function renderSessions(sessions: SessionView[]): void {
  const panel = byId('sessions');
  if (sessions.length === 0) return panel.replaceChildren(element('span', 'No session yet.', 'muted'));
  const list = element('ul');
  for (const session of [...sessions].reverse()) {
    const item = element('li');
    item.dataset.session = session.name;
    item.append(element('strong', session.name), ' ' + sessionRules(session) + ' ');
    item.append(element('span', '(used ' + session.last_seen.slice(11, 19) + ' UTC) ', 'muted'));
    const clear = element('button', 'Clear its rules');
    clear.addEventListener('click', () => void call('DELETE', '/sessions/' + session.name + '/scenario'));
    item.append(clear);
    list.append(item);
  }
  panel.replaceChildren(list);
}

async function loadSessions(): Promise<void> {
  const { status, data } = await call('GET', '/sessions');
  if (status === 200) renderSessions((data as { sessions: SessionView[] }).sessions);
}

function shown(entry: EntryView): boolean {
  const statusClass = field('filter-status').value;
  const operation = field('filter-operation').value;
  const text = field('filter-path').value.trim().toLowerCase();
  if (statusClass !== '' && String(entry.status)[0] !== statusClass) return false;
  if (operation === 'passthrough' ? !passedThrough(entry) : operation !== '' && operationOf(entry) !== operation)
    return false;
  if (text !== '' && !entry.path.toLowerCase().includes(text)) return false;
  if (!inSession(entry, field('filter-session').value)) return false;
  return !checkbox('filter-problems').checked || isProblem(entry);
}

/** Hides the rows the filters leave out, and says how many are shown and how many wait behind the pause. */
function applyFilters(): void {
  let visible = 0;
  for (const tr of rows()) {
    const entry = entries.get(Number(tr.dataset.id));
    tr.hidden = !entry || !shown(entry);
    if (!tr.hidden) visible++;
  }
  const waiting = paused ? '; paused, ' + held.length + ' new held' : '';
  byId('list-count').textContent = visible + ' of ' + entries.size + ' shown' + waiting;
}

function element(tag: string, text?: string | number, className?: string): HTMLElement {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

function option(value: string, text: string): HTMLOptionElement {
  const node = document.createElement('option');
  node.value = value;
  node.textContent = text;
  return node;
}

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; data: unknown }> {
  const init: { method: string; headers: Record<string, string>; body?: string } = {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
  };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await window.fetch('/__evalkit' + path, init);
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text === '' ? null : JSON.parse(text);
  } catch {
    data = text;
  }
  return { status: res.status, data };
}

function detailText(data: unknown): string {
  const detail = (data as { detail?: unknown } | null)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail))
    return (detail as ValidationDetail[]).map((d) => d.loc.join('.') + ': ' + d.msg).join('; ');
  return JSON.stringify(data);
}

function row(entry: EntryView): HTMLElement {
  const tr = document.createElement('tr');
  tr.dataset.id = String(entry.id);
  const path = element('td', undefined, 'path');
  path.append(element('span', entry.path));
  path.setAttribute('title', entry.path);
  const status = element('td', entry.status, 's' + String(entry.status)[0]);
  if (entry.fault) status.append(element('span', '(' + entry.fault + ')', 'fault'));
  // What the answer shows: the record's state, or that the mock did not answer it at all.
  const state = element('td', passedThrough(entry) ? undefined : stateOf(entry), 'state');
  if (passedThrough(entry)) state.append(element('span', 'passed through', 'through'));
  tr.append(
    element('td', entry.time.slice(11, 23)),
    element('td', entry.method),
    path,
    status,
    state,
    element('td', entry.duration_ms.toFixed(1)),
  );
  tr.hidden = !shown(entry);
  // A row is a control: reached with Tab, opened with Enter or Space as with a click.
  tr.tabIndex = 0;
  tr.addEventListener('click', () => show(entry.id));
  tr.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    show(entry.id);
  });
  return tr;
}

function addEntry(entry: EntryView): void {
  if (entries.has(entry.id)) return;
  listSession(entry);
  if (paused) {
    if (!held.some((waiting) => waiting.id === entry.id)) held.push(entry);
    // The journal keeps no more than this: older ones would be gone from it anyway.
    if (held.length > config.journalSize) held.shift();
    return applyFilters();
  }
  entries.set(entry.id, entry);
  const body = byId('request-rows');
  const newer = rows().find((tr) => Number(tr.dataset.id) < entry.id);
  body.insertBefore(row(entry), newer ?? null);
  while (body.children.length > config.journalSize) {
    const last = body.lastElementChild as HTMLElement | null;
    if (!last) break;
    entries.delete(Number(last.dataset.id));
    last.remove();
  }
  applyFilters();
}

function setPaused(on: boolean): void {
  paused = on;
  const button = byId('pause');
  button.textContent = on ? 'Resume' : 'Pause';
  button.setAttribute('aria-pressed', String(on));
  if (!on) {
    const waiting = held;
    held = [];
    for (const entry of waiting) addEntry(entry);
  }
  applyFilters();
}

function block(title: string, value: unknown): DocumentFragment {
  const wrap = document.createDocumentFragment();
  wrap.append(element('h3', title), element('pre', typeof value === 'string' ? value : JSON.stringify(value, null, 2)));
  return wrap;
}

function bodyBlock(title: string, part: PartView): DocumentFragment {
  // Cut at the cap or withheld whole (`<body withheld: …>`): either way not all of its bytes are shown.
  const note = part.body_truncated ? ' (' + part.body_bytes + ' bytes, not kept whole)' : '';
  return block(title + note, part.body === null ? '(none)' : part.body);
}

function show(id: number): void {
  const entry = entries.get(id);
  if (!entry) return;
  for (const tr of rows()) tr.classList.toggle('selected', Number(tr.dataset.id) === id);
  const panel = byId('details');
  panel.replaceChildren(element('h2', entry.method + ' ' + entry.path + ' → ' + entry.status));
  const fault = entry.fault ? ', fault ' + entry.fault : '';
  // Whether the origin answered or the mock did in its stead (a 502, ...), the entry's note says.
  const who = passedThrough(entry) ? ', passed through to the --passthrough origin' : '';
  const session = entry.session === null ? '' : ', session ' + entry.session;
  panel.append(element('p', entry.time + ', ' + entry.duration_ms + ' ms' + fault + who + session, 'muted'));
  const applied = entry.scenario
    ? Object.entries(entry.scenario)
        .map(([key, value]) => key + '=' + value)
        .join(', ')
    : passedThrough(entry)
      ? "(none: passed through, not answered by the mock's operations)"
      : '(none: refused before routing)';
  panel.append(element('p', 'Scenario applied: ' + applied));
  // What the mock read otherwise than sent, and where a followed record stands (progress=MS): its phase.
  for (const note of entry.notes) panel.append(element('p', 'Note: ' + note, 'note'));
  if (entry.problems.length > 0) {
    const table = element('table');
    table.id = 'problems';
    table.append(element('caption', entry.problems.length + ' problem(s): why the mock answered ' + entry.status));
    for (const problem of entry.problems) {
      const tr = document.createElement('tr');
      tr.append(
        element('td', problem.loc.join('.'), 'problem'),
        element('td', problem.msg),
        element('td', problem.type, 'muted'),
      );
      table.append(tr);
    }
    panel.append(table);
  }
  const copy = element('button', 'Copy as curl');
  copy.id = 'copy-curl';
  copy.addEventListener('click', () => {
    navigator.clipboard.writeText(entry.curl).then(
      () => (copy.textContent = 'Copied'),
      () => (copy.textContent = 'Select the command below to copy it'),
    );
  });
  panel.append(copy, element('pre', entry.curl));
  panel.append(block('Request headers', entry.request.headers), bodyBlock('Request body', entry.request));
  panel.append(block('Response headers', entry.response.headers), bodyBlock('Response body', entry.response));
}

async function loadRequests(): Promise<void> {
  const { status, data } = await call('GET', '/requests');
  if (status !== 200) {
    byId('journal-status').textContent = detailText(data);
    return;
  }
  for (const entry of (data as { requests: EntryView[] }).requests.reverse()) addEntry(entry);
}

/** A scenario rule as `key=value` pairs in key order, so two rules compare as text; '' for none. */
function ruleText(rule: Record<string, unknown> | undefined): string {
  return Object.keys(rule ?? {})
    .sort()
    .map((key) => key + '=' + String(rule?.[key]))
    .join(', ');
}

/** What the scenario in force sets that the start-up one does not, rule by rule, in words. */
function runTimeChanges(data: ScenarioFileData): string[] {
  const { startup } = config;
  const changes: string[] = [];
  const now = ruleText(data.scenario);
  if (now !== ruleText(startup.scenario)) changes.push('every request: ' + now);
  for (const { id, label } of config.operations) {
    const rule = ruleText(data.operations[id as keyof ScenarioFileData['operations']]);
    if (rule !== ruleText(startup.operations[id as keyof ScenarioFileData['operations']]))
      changes.push(label + ': ' + (rule || 'the server scenario'));
  }
  const ids = new Set([...Object.keys(startup.humanEvaluations), ...Object.keys(data.humanEvaluations)]);
  for (const id of ids) {
    const rule = ruleText(data.humanEvaluations[id]);
    if (rule !== ruleText(startup.humanEvaluations[id]))
      changes.push('human evaluation ' + id + ': ' + (rule || 'the server scenario'));
  }
  return changes;
}

function renderScenario(data: ScenarioFileData): void {
  const changes = runTimeChanges(data);
  byId('scenario-banner').hidden = changes.length === 0;
  byId('scenario-banner-text').textContent = changes.join('; ');
  field('scenario-json').value = JSON.stringify(data, null, 2);
  for (const { id } of config.operations) {
    const values: Record<string, unknown> = data.operations[id as keyof ScenarioFileData['operations']] ?? {};
    for (const key of Object.keys(config.controls))
      field(id + '-' + key).value = values[key] === undefined ? '' : String(values[key]);
  }
}

/** Says how a change went beside the button that asked for it, where the person is looking. */
function status(where: string, text: string, failed: boolean): void {
  const line = byId(where);
  line.textContent = text;
  line.className = 'apply-status ' + (failed ? 'problem' : 'muted');
}

/** PUT replaces the scenario in force; PATCH merges rules into it, so rules set meanwhile elsewhere stay. */
async function change(method: 'PUT' | 'PATCH', data: unknown, where: string): Promise<void> {
  const { status: code, data: answer } = await call(method, '/scenario', data);
  if (code !== 200) return status(where, 'Refused (' + code + '): ' + detailText(answer), true);
  renderScenario(answer as ScenarioFileData);
  status(where, 'Scenario in force since ' + new Date().toISOString().slice(11, 19) + ' UTC', false);
}

function operationControls(operation: { id: string; label: string }): HTMLElement {
  const set = element('fieldset');
  set.append(element('legend', operation.label + ' (' + operation.id + ')'));
  for (const [key, choices] of Object.entries(config.controls)) {
    const label = element('label', key + ' ');
    let input: HTMLInputElement | HTMLSelectElement;
    if (choices === 'text') {
      const text = document.createElement('input');
      text.type = 'text';
      text.placeholder = key === 'latency' ? 'MS or MIN-MAX' : '';
      input = text;
    } else {
      input = document.createElement('select');
      input.append(option('', '(server)'));
      for (const choice of choices) input.append(element('option', choice));
    }
    input.id = operation.id + '-' + key;
    label.append(input);
    set.append(label);
  }
  const apply = element('button', 'Apply to ' + operation.id);
  apply.id = operation.id + '-apply';
  apply.addEventListener('click', () => {
    // A merge patch of this operation's rule alone: an empty control (server) removes its key, all empty the rule.
    const values: Record<string, string | null> = {};
    for (const key of Object.keys(config.controls)) {
      const value = field(operation.id + '-' + key).value.trim();
      values[key] = value === '' ? null : value;
    }
    const rule = Object.values(values).some((value) => value !== null) ? values : null;
    void change('PATCH', { operations: { [operation.id]: rule } }, apply.id + '-status');
  });
  const said = element('span', '', 'apply-status muted');
  said.id = apply.id + '-status';
  said.setAttribute('role', 'status');
  set.append(apply, said);
  return set;
}

function renderFixtures(data: FixtureStatus | { dir: null }): void {
  const panel = byId('fixtures');
  if (data.dir === null) return panel.replaceChildren(element('span', 'No fixtures folder (--fixtures DIR).', 'muted'));
  panel.replaceChildren(element('p', data.fixtures + ' fixture(s) from ' + data.dir + ', loaded ' + data.loaded_at));
  if (data.problems.length > 0) {
    const refused = 'Last reload refused at ' + data.failed_at + ', still serving the previous set:';
    panel.append(element('p', refused, 'problem'));
    const list = element('ul');
    for (const problem of data.problems) list.append(element('li', problem, 'problem'));
    panel.append(list);
  }
}

for (const operation of config.operations) byId('scenario-controls').append(operationControls(operation));
byId('put-json').addEventListener('click', () => {
  let data: unknown;
  try {
    data = JSON.parse(field('scenario-json').value);
  } catch {
    return status('put-json-status', 'The text is not valid JSON', true);
  }
  void change('PUT', data, 'put-json-status');
});
const restore = () =>
  void call('DELETE', '/scenario').then(({ data }) => {
    renderScenario(data as ScenarioFileData);
    status('put-json-status', 'Start-up scenario restored', false);
  });
byId('restore').addEventListener('click', restore);
byId('restore-defaults').addEventListener('click', restore);
const operationFilter = byId('filter-operation');
for (const { id, label } of config.operations) operationFilter.append(option(id, label));
operationFilter.append(option('passthrough', 'passed through'), option('other', 'other paths'));
for (const id of ['filter-status', 'filter-operation', 'filter-session', 'filter-problems'])
  byId(id).addEventListener('change', applyFilters);
byId('filter-path').addEventListener('input', applyFilters);
byId('pause').addEventListener('click', () => setPaused(!paused));
byId('clear').addEventListener('click', () => void call('DELETE', '/requests'));

const events = new window.EventSource('/__evalkit/events');
events.onopen = () => {
  byId('live').textContent = 'live';
  byId('live').className = 'on';
  void loadRequests();
};
events.onerror = () => {
  byId('live').textContent = 'reconnecting…';
  byId('live').className = 'muted';
};
events.onmessage = (event) => addEntry(JSON.parse(event.data) as EntryView);
events.addEventListener('cleared', () => {
  entries.clear();
  held = [];
  byId('request-rows').replaceChildren();
  applyFilters();
  byId('details').replaceChildren();
});
events.addEventListener('scenario', (event) => renderScenario(JSON.parse(event.data) as ScenarioFileData));
events.addEventListener('fixtures', (event) => renderFixtures(JSON.parse(event.data) as FixtureStatus));
events.addEventListener('sessions', (event) => renderSessions(JSON.parse(event.data) as SessionView[]));
byId('refresh-sessions').addEventListener('click', () => void loadSessions());
void loadSessions();
void call('GET', '/scenario').then(({ data }) => renderScenario(data as ScenarioFileData));
void call('GET', '/fixtures').then(({ data }) => renderFixtures(data as FixtureStatus | { dir: null }));
