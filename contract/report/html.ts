import { baselineText } from '../../http/baseline.js';
import { counted } from '../../http/counted.js';
import { createHash } from 'node:crypto';
import { capped } from '../../http/excerpt.js';
import { escapeControlCharacters as visible } from '../../http/redaction.js';
import { coverageFigures, coverageHeading, figureText, type ReportCoverage } from './coverage.js';
import { countsText, idsText, nothingCompared, replayCountsText, verdictText, type Report } from './model.js';
import type { CheckResult, FindingView } from '../judge/verdicts.js';
import type { MockDifference } from '../compare/differences.js';
import { standingOf } from '../compare/standing.js';

/** Findings listed per failed check; the JSON report keeps them all. */
const shownFindings = 20;

/** Every character HTML gives a meaning to, in text and in quoted attributes alike. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * Text from a deployment: cut, invisible characters shown as escapes (a bidi override cannot reorder what the page
 * shows; tabs and newlines stay, for the excerpts' layout), then escaped.
 */
function shown(text: string): string {
  return escapeHtml(visible(capped(text), 'lines'));
}

/** Copies the text of the element a button names; falls back to a selection where the Clipboard API is refused. */
const script = `document.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-copy]');
  if (!button) return;
  const source = document.getElementById(button.dataset.copy);
  const done = () => { button.textContent = 'Copied'; };
  const fallback = () => {
    const range = document.createRange();
    range.selectNodeContents(source);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    document.execCommand('copy');
    done();
  };
  if (navigator.clipboard) navigator.clipboard.writeText(source.textContent).then(done, fallback);
  else fallback();
});`;

const style = [
  '',
  'body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:72rem;' +
    'padding:1.5rem;color:#1b1f24;background:#fff}',
  'h1{margin:0 0 .25rem;font-size:1.9rem}' +
    'h2{margin:1.75rem 0 .5rem;font-size:1.15rem;border-bottom:1px solid #d0d7de;padding-bottom:.25rem}',
  '.verdict{padding:1rem 1.25rem;border-radius:8px;margin-bottom:1rem}.PASS{background:#dafbe1}' +
    '.FAIL{background:#ffebe9}.NOTHING{background:#eaeef2}',
  '.meta{color:#57606a}ul.checks{list-style:none;padding:0;margin:0}' +
    'ul.checks>li{padding:.35rem .5rem;border-bottom:1px solid #eaeef2}',
  '.badge{display:inline-block;min-width:3.2rem;text-align:center;font-weight:600;' +
    'font-size:.75rem;border-radius:4px;padding:1px 4px;margin-right:.5rem}',
  '.b-passed{background:#dafbe1;color:#116329}.b-error{background:#ffebe9;color:#a40e26}' +
    '.b-warning{background:#fff8c5;color:#7d4e00}.b-skipped{background:#eaeef2;color:#57606a}',
  'code,pre{font:12px/1.4 ui-monospace,monospace}' +
    'pre{background:#f6f8fa;padding:.6rem;border-radius:6px;white-space:pre-wrap;' +
    'word-break:break-all;margin:.3rem 0;max-height:22rem;overflow:auto}',
  '.detail{margin:.4rem 0 .4rem 3.9rem}.label{color:#57606a;font-size:.8rem;margin-top:.5rem}' +
    '.passed-text,.skip-reason{color:#57606a}',
  'button{font:inherit;font-size:.8rem;padding:.15rem .6rem;border:1px solid #d0d7de;' +
    'border-radius:6px;background:#f6f8fa;cursor:pointer}',
  '.columns{display:grid;grid-template-columns:1fr 1fr;gap:.75rem}',
  'table.failures{border-collapse:collapse;width:100%}table.failures td,table.failures th{text-align:left;' +
    'padding:.3rem .5rem;border-bottom:1px solid #eaeef2;vertical-align:top}table.failures th{color:#57606a}',
  'details.rest>summary{cursor:pointer;margin:1.75rem 0 .5rem;font-size:1.15rem;font-weight:600}',
].join('\n');

/** A curl command and its copy button; `id` is unique in the page. */
/** A command shown as written, with a button that copies it (`label`: what the button says it copies). */
function copyable(text: string, id: string, label = 'Copy curl'): string {
  const button = `<button type="button" data-copy="${escapeHtml(id)}">${escapeHtml(label)}</button>`;
  return `<pre id="${escapeHtml(id)}">${escapeHtml(visible(text, 'lines'))}</pre>${button}`;
}

function badge(check: CheckResult): string {
  const kind = check.outcome === 'failed' ? check.severity : check.outcome === 'accepted' ? 'skipped' : check.outcome;
  const texts = {
    passed: 'PASS',
    skipped: 'SKIP',
    accepted: 'ACCEPTED',
    failed: check.severity === 'error' ? 'FAIL' : 'WARN',
  };
  return `<span class="badge b-${kind}">${texts[check.outcome]}</span>`;
}

/** The id a failed check's entry has in the page, for the summary table's links. */
function anchorOf(check: CheckResult): string {
  return escapeHtml(`check-${check.id}`);
}

function checkItem(check: CheckResult): string {
  const head = `${badge(check)}<code>${escapeHtml(check.id)}</code>`;
  if (check.outcome === 'passed')
    return `<li class="passed">${head} <span class="passed-text">${escapeHtml(check.message)}</span></li>`;
  if (check.outcome === 'skipped')
    return `<li class="skipped">${head} <span class="skip-reason">skipped: ${shown(check.message)}</span></li>`;
  const findings = findingViews(check).slice(0, shownFindings).map(findingItem);
  if (check.findings.length > shownFindings)
    findings.push(`<li>… and ${check.findings.length - shownFindings} more (all in the JSON report)</li>`);
  const parts = [
    `<div class="label">Spec</div><div>${escapeHtml(check.spec)}</div>`,
    `<div class="label">Findings (${check.findings.length})</div><ul>${findings.join('')}</ul>`,
    `<div class="meta">${escapeHtml(idsText(check))}</div>`,
    ...(check.hint ? [`<div class="label">Fix</div><div class="hint">${shown(check.hint)}</div>`] : []),
  ];
  if (check.excerpts) {
    parts.push(
      '<div class="columns">' +
        `<div><div class="label">Request</div><pre>${shown(check.excerpts.request)}</pre></div>` +
        `<div><div class="label">Response</div><pre>${shown(check.excerpts.response)}</pre></div></div>`,
    );
  }
  if (check.reproduce) parts.push(`<div class="label">Reproduce</div>${copyable(check.reproduce, `copy-${check.id}`)}`);
  const open =
    `<li class="${check.outcome} ${check.severity}" id="${anchorOf(check)}" ` + `data-check="${escapeHtml(check.id)}">`;
  return `${open}${head} ${shown(firstFinding(check))}<div class="detail">${parts.join('')}</div></li>`;
}

/** A failed check's findings as a person reads them (the views; a report from before them, its findings' text). */
function findingViews(check: CheckResult): FindingView[] {
  return check.views ?? check.findings.map((text) => ({ text }));
}

/** The line that names a failed check's first finding: a shared cause without its requests, listed once below. */
function firstFinding(check: CheckResult): string {
  return findingViews(check)[0]?.text ?? check.message;
}

/**
 * One finding of the Findings list: its line and id (marked when the --ignore file accepts it), and the requests
 * behind a shared cause, one per item.
 */
function findingItem({ text, requests, moreRequests, id, accepted }: FindingView): string {
  const mark = accepted ? '<span class="badge b-skipped">ACCEPTED</span>' : '';
  const tail = id ? ` <code class="finding-id">${escapeHtml(id)}</code>` : '';
  if (requests === undefined) return `<li>${mark}${shown(text)}${tail}</li>`;
  const items = requests.map((request) => `<li>${shown(request)}</li>`);
  if (moreRequests) items.push(`<li>… and ${moreRequests} more</li>`);
  return `<li>${mark}${shown(text)}${tail}:<ul>${items.join('')}</ul></li>`;
}

/** One row per failed check, linking to its entry: what a reader of a failing run looks at first. */
function failureTable(failed: CheckResult[]): string {
  const rows = failed.map(
    (check) =>
      `<tr><td>${badge(check)}<a href="#${anchorOf(check)}"><code>${escapeHtml(check.id)}</code></a></td>` +
      `<td>${escapeHtml(check.operation)}</td><td>${shown(firstFinding(check))}</td></tr>`,
  );
  return (
    `<section id="failures"><h2>Failed checks (${failed.length})</h2><table class="failures">` +
    `<tr><th>Check</th><th>Operation</th><th>First finding</th></tr>${rows.join('')}</table></section>`
  );
}

/** The given checks and notes under a heading per operation, in the order the operations first appear. */
function byOperation(operations: string[], checks: CheckResult[], notes: Report['notes']): string[] {
  const sections: string[] = [];
  for (const operation of operations) {
    const items = checks.filter((check) => check.operation === operation).map(checkItem);
    for (const note of notes.filter((candidate) => candidate.operation === operation))
      items.push(`<li><span class="badge b-skipped">NOTE</span>${shown(note.message)}</li>`);
    if (items.length > 0)
      sections.push(`<section><h2>${escapeHtml(operation)}</h2><ul class="checks">${items.join('')}</ul></section>`);
  }
  return sections;
}

/** The --replay section: its counts, each refused request with a curl to copy, each skipped one with why. */
function replaySection(replay: NonNullable<Report['replay']>): string {
  const refused = replay.refused.map(
    (refusal, index) =>
      `<li><p>${shown(refusal.message)}</p><p>answer: <code>${shown(refusal.answer)}</code></p>` +
      `${copyable(refusal.curl, `copy-replay-${index}`)}</li>`,
  );
  const skipped = replay.skipped.map((skip) => `<li>${shown(skip.request)}: ${shown(skip.reason)}</li>`);
  return (
    `<section id="replay"><h2>Replay of ${shown(replay.source)}: ${escapeHtml(replayCountsText(replay))}</h2>` +
    (refused.length > 0 ? `<ul class="refused">${refused.join('')}</ul>` : '') +
    (skipped.length > 0
      ? `<details><summary>Skipped (${skipped.length})</summary><ul>${skipped.join('')}</ul></details>`
      : '') +
    '</section>'
  );
}

/**
 * A table of differences: each with its id (what an ignore file lists), the check the deployment failed when it is
 * its own violation, its requests, both answers, and what a frontend notices.
 */
function differenceTable(differences: readonly MockDifference[]): string {
  return table(
    ['What differs', 'Deployment', 'Mock', 'Requests', 'A frontend'],
    differences.map((difference) => [
      escapeHtml(difference.aspect) +
        (difference.fields ? `<div class="meta">${shown(difference.fields.join(', '))}</div>` : '') +
        (difference.check ? `<div class="meta">the deployment fails ${escapeHtml(difference.check)}</div>` : '') +
        `<div class="meta"><code>${escapeHtml(difference.id)}</code></div>`,
      `<strong>${shown(difference.deployment)}</strong><pre>${shown(difference.answers.deployment)}</pre>`,
      `<strong>${shown(difference.mock)}</strong><pre>${shown(difference.answers.mock)}</pre>`,
      `${difference.requests.map((request) => `<div>${shown(request)}</div>`).join('')}` +
        (difference.count > difference.requests.length ? `<div class="meta">${difference.count} in all</div>` : ''),
      escapeHtml(difference.notice),
    ]),
  );
}

/**
 * The --compare-mock section: the mock's own differences, those the team accepted, the deployment's own spec
 * violations apart, and the closest mock to copy.
 */
function mockSection(mock: NonNullable<Report['mock']>): string {
  const nothing = nothingCompared(mock);
  if (nothing) return `<section id="mock"><h2>Compared with the mock</h2><p>${escapeHtml(nothing)}</p></section>`;
  const { suggested } = mock;
  const { drift, accepted, violations } = standingOf(mock.differences);
  const beyond = mock.notCompared > 0 ? ` (${mock.notCompared} more not compared)` : '';
  const apart = (title: string, differences: readonly MockDifference[]) =>
    differences.length > 0 ? `<h3>${escapeHtml(title)}: ${differences.length}</h3>${differenceTable(differences)}` : '';
  return (
    `<section id="mock"><h2>Compared with the mock: ${counted(drift.length, 'difference')}</h2>` +
    `<p class="meta">${shown(mock.command)} answered the same ${mock.compared} requests${beyond}.</p>` +
    (drift.length > 0 ? differenceTable(drift) : '<p>No difference a frontend could see.</p>') +
    apart('Accepted (listed in the ignore file)', accepted) +
    apart("The deployment's own spec violations (see its failed checks), not counted as the mock's", violations) +
    `<h3>Closest mock settings: ${counted(suggested.differences.length, 'difference')} remain</h3>` +
    copyable(suggested.command, 'copy-mock-command', 'Copy command') +
    (suggested.differences.length > 0 ? differenceTable(suggested.differences) : '') +
    '</section>'
  );
}

/** The --ignore file's ids: how many this run found, then the accepted and the stale ones, every one. */
function baselineSection(baseline: NonNullable<Report['baseline']>): string {
  const list = (title: string, ids: readonly string[]) =>
    ids.length > 0
      ? `<div class="label">${escapeHtml(title)} (${ids.length})</div>` +
        `<ul class="${title}">${ids.map((id) => `<li><code>${escapeHtml(id)}</code></li>`).join('')}</ul>`
      : '';
  return (
    `<section id="baseline"><h2>${escapeHtml(baselineText(baseline))}</h2>` +
    list('accepted', baseline.accepted) +
    list('stale', baseline.stale) +
    '</section>'
  );
}

/** A table of rows of cells, each cell already HTML. */
function table(head: string[], rows: string[][]): string {
  const cells = (tag: string, row: string[]) => row.map((cell) => `<${tag}>${cell}</${tag}>`).join('');
  return (
    `<table class="failures"><tr>${cells('th', head)}</tr>` +
    `${rows.map((row) => `<tr>${cells('td', row)}</tr>`).join('')}</table>`
  );
}

/** A count of the coverage: a zero stands out, in the notes' neutral colour, since it is information, not a finding. */
function count(value: number): string {
  return value === 0 ? '<span class="badge b-skipped">0</span>' : String(value);
}

/**
 * What the run exercised, folded away unless a --min-coverage was missed: statuses per operation, each documented
 * response field
 * with the records that carried it (and as null), each state, each create-request field.
 */
function coverageSection(coverage: ReportCoverage, open: string): string {
  const { operations, responseFields: fields, states, requestFields: requests } = coverage;
  const heading = coverageHeading(coverage);
  const title = `${heading[0]?.toUpperCase()}${heading.slice(1)}: ${Object.values(coverageFigures(coverage))
    .map(figureText)
    .join(', ')}`;
  const statuses = operations.byOperation.map((operation) => [
    escapeHtml(operation.operation),
    String(operation.exchanges),
    operation.statuses.map(({ status, count: times }) => `${status} ×${times}`).join(', ') || count(0),
  ]);
  const records = fields.records.map(({ resource, count: times }) => `${escapeHtml(resource)} ${times}`).join(', ');
  const stateRows = states.fields.flatMap((state) =>
    [...state.values, ...state.others].map(({ value, count: times }) => [
      `<code>${escapeHtml(state.field)}</code>`,
      `<code>${shown(value)}</code>`,
      count(times),
    ]),
  );
  const shortfalls = coverage.shortfalls.map((shortfall) => `<div>below --min-coverage: ${shown(shortfall)}</div>`);
  return (
    `<details class="rest" id="coverage"${open}><summary>${escapeHtml(title)}</summary>\n${shortfalls.join('')}` +
    `<h3>Statuses</h3>${table(['Operation', 'Exchanges', 'Statuses'], statuses)}` +
    `<h3>Response fields (${fields.seen}/${fields.documented})</h3><p class="meta">Records read: ${records}` +
    `</p>${table(
      ['Field', 'Carried by', 'As null'],
      fields.fields.map((field) => [
        `<code>${escapeHtml(field.field)}</code>`,
        count(field.carried),
        String(field.null),
      ]),
    )}` +
    `<h3>States (${states.seen}/${states.known})</h3>${table(['Field', 'State', 'Seen'], stateRows)}` +
    `<h3>Request fields (${requests.requests} valid create requests)</h3>${table(
      ['Field', 'Sent', 'Absent', 'Varied'],
      requests.fields.map((field) => [
        `<code>${escapeHtml(field.field)}</code>`,
        String(field.sent),
        String(field.absent),
        field.varied ? 'yes' : 'no',
      ]),
    )}\n</details>`
  );
}

/**
 * The report as one self-contained HTML page, failures first: the verdict, a table of the failed checks linking to
 * each, the failed checks by operation (spec line, findings, request and response excerpts, a curl command to copy)
 * and their counterexamples, then the passed and skipped checks and the notes, folded when something failed. Its
 * Content-Security-Policy allows no request at all and only its own inline script, so even text a deployment managed
 * to smuggle past escaping could load nothing.
 */
export function htmlReport(report: Report): string {
  const { verdict } = report;
  const { failed, warnings } = report.summary;
  const errors = failed - warnings;
  const counts = `${countsText(report.summary)}, ${counted(report.notes.length, 'note')}`;
  const operations = [...new Set(report.checks.map((check) => check.operation))];
  const failedChecks = report.checks.filter((check) => check.outcome === 'failed');
  const sections: string[] = failedChecks.length > 0 ? [failureTable(failedChecks)] : [];
  sections.push(...byOperation(operations, failedChecks, []));
  report.counterexamples.forEach((example, index) => {
    sections.push(
      `<section><h2>Reproduce ${escapeHtml(example.check)}</h2><p>${shown(example.finding)}</p>` +
        `${copyable(example.curl, `copy-example-${index}`)}</section>`,
    );
  });
  const acceptedChecks = report.checks.filter((check) => check.outcome === 'accepted');
  if (acceptedChecks.length > 0)
    sections.push(
      `<section id="accepted"><h2>Accepted (${acceptedChecks.length}): every finding listed in the --ignore file` +
        `</h2></section>`,
      ...byOperation(operations, acceptedChecks, []),
    );
  if (report.replay) sections.push(replaySection(report.replay));
  if (report.mock) sections.push(mockSection(report.mock));
  if (report.baseline) sections.push(baselineSection(report.baseline));
  const rest = report.checks.filter((check) => check.outcome === 'passed' || check.outcome === 'skipped');
  const restSections = byOperation(operations, rest, report.notes);
  if (restSections.length > 0) {
    const open = failedChecks.length > 0 ? '' : ' open';
    const title = `Passed and skipped checks (${rest.length}), notes (${report.notes.length})`;
    sections.push(`<details class="rest"${open}><summary>${title}</summary>\n${restSections.join('\n')}\n</details>`);
  }
  // Open only when a minimum was missed: otherwise it is information, folded away on a clean run as on a failed one.
  if (report.reachable)
    sections.push(coverageSection(report.coverage, report.coverage.shortfalls.length > 0 ? ' open' : ''));
  const scriptHash = createHash('sha256').update(script).digest('base64');
  const policy =
    `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'; ` +
    "base-uri 'none'; form-action 'none'";
  const verdictOpen =
    `<div class="verdict ${verdict.split(' ')[0]}" id="verdict" data-failures="${failed}" ` +
    `data-errors="${errors}" data-warnings="${warnings}">`;
  const headline = report.headline ? `<div id="headline">${shown(report.headline)}</div>\n` : '';
  const insecure = report.insecure ? '<div class="meta">--insecure: certificates were not verified</div>\n' : '';
  const stopped = report.stopped ? `. Stopped: ${shown(report.stopped)}` : '';
  const took = `${report.requests} requests in ${report.durationMs} ms`;
  const meta = `evalkit ${report.command} ${escapeHtml(report.target)}: ${took}${stopped}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>evalkit ${report.command} ${escapeHtml(verdict)}: ${escapeHtml(report.target)}</title>
<style>${style}</style></head>
<body>
${verdictOpen}
<h1>${escapeHtml(verdictText(report))}</h1>
${headline}${insecure}<div id="counts">${escapeHtml(counts)}</div>
<div class="meta">${meta}</div>
</div>
${sections.join('\n')}
<script>${script}</script>
</body></html>
`;
}
