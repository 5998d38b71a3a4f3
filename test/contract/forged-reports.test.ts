import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  githubAnnotations,
  githubStepSummary,
  runContract,
  terminalReport,
  type Report,
} from '../../contract/index.js';
import { bankCreateBody, serverText } from './bank.js';
import { json, startConformingServer, type RunningServer } from './conforming-server.js';

/** Bidi controls, zero-width and other invisible characters (Trojan Source), and C0/C1 controls. */
const invisible = [
  ...['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'],
  ...['\u200E', '\u200F', '\u061C', '\u200B', '\u200C', '\u200D', '\u2060', '\u2061', '\u2062', '\u2063'],
  ...['\u2064', '\uFEFF', '\u00AD', '\u180E', '\u{E0041}', '\u001b', '\u0007', '\u0008', '\u009b', '\u0085'],
];

/** Every way of ending a line: CommonMark's three, Unicode's separators, NEL, VT and FF. */
const lineBreaks = ['\n', '\r', '\r\n', '\u2028', '\u2029', '\u0085', '\u000b', '\u000c'];

/** What a new line would start: Markdown blocks, raw HTML, a mention, and workflow commands in each form. */
const starts = [
  '# h',
  '|a|b|',
  '> q',
  '<details>',
  '```',
  '<!--c-->',
  '@octocat',
  '- i',
  '1. i',
  '---',
  '::set-output name=v::PASS',
  '::add-mask::evalkit',
  '::error::f',
  '%0A::error::f',
  '##[add-mask]e',
  '  PASS fetch.body.schema  forged',
];

/** The hostile text of one kind of line break: every invisible character, then every start after that break. */
const forgedWith = (lineBreak: string) =>
  `${invisible.join('')}app${starts.map((start) => `${lineBreak}${start}`).join('')}`;

const invisiblePattern = new RegExp(`[${invisible.join('')}]`, 'u');
/** The lines a reader (a terminal, GitHub's runner, a Markdown renderer) sees. */
const linesOf = (text: string) => text.split(/\r\n|\r|\n/);

describe.each(lineBreaks.map((lineBreak) => [JSON.stringify(lineBreak), lineBreak]))(
  'server text with %s line breaks cannot forge what the reports show',
  (_name, lineBreak) => {
    const forged = forgedWith(lineBreak);
    let server: RunningServer;
    let report: Report;

    beforeAll(async () => {
      // The text in raw findings (a created Evaluation's app_id), quoted ones (a fetched id), notes (an undocumented
      // field's name) and answers to invalid requests (a 500 body).
      server = await startConformingServer({
        rewrite: serverText(forged, json(500, { detail: forged })),
      });
      report = await runContract({ baseUrl: server.url, deployment: { createEvaluations: bankCreateBody } });
      const failed = report.checks.filter((check) => check.outcome === 'failed').map((check) => check.id);
      expect(failed).toEqual(expect.arrayContaining(['fetch.body.id', 'create.body.request-ids', 'create.status.5xx']));
      expect(report.notes.some((note) => note.message.includes('::add-mask::'))).toBe(true);
      expect(report.verdict).toBe('FAIL');
    });
    afterAll(async () => {
      await server.close();
    });

    it('the terminal shows every invisible and control character as an escape, on evalkit lines only', () => {
      const text = terminalReport(report, { colour: false });
      expect(text).not.toMatch(invisiblePattern);
      expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
      for (const escaped of [
        '\\u{202E}',
        '\\u{2066}',
        '\\u{200B}',
        '\\u{FEFF}',
        '\\u{00AD}',
        '\\u{E0041}',
        '\\x1b',
        '\\x85',
      ])
        expect(text).toContain(escaped);
      expect(text).not.toContain('##[');
      const lines = linesOf(text);
      expect(lines.filter((line) => /^\s*PASS fetch\.body\.schema\s+forged/.test(line))).toEqual([]);
      expect(lines.filter((line) => line.startsWith('::'))).toEqual([]);
    });

    it('GitHub annotations: one line per failed check, no command of the server, no line break of any kind', () => {
      const text = githubAnnotations(report);
      const failed = report.checks.filter((check) => check.outcome === 'failed');
      const lines = linesOf(text.trimEnd());
      expect(lines).toHaveLength(failed.length);
      for (const line of lines) expect(line).toMatch(/^::(error|warning) title=[a-z0-9.-]+ \([^)]*\)::/);
      expect(text).not.toMatch(/[\u2028\u2029\u0085\u000b\u000c]/);
      expect(text).not.toMatch(invisiblePattern);
      expect(text).not.toContain('##[');
    });

    it("the step summary's Markdown structure is evalkit's: one heading, its rows, no block of the server", () => {
      const summary = githubStepSummary(report);
      const listed = report.checks.filter((check) => check.outcome !== 'passed').length;
      expect(summary).not.toMatch(/[\u2028\u2029\u0085\u000b\u000c]/);
      expect(summary).not.toMatch(invisiblePattern);
      const lines = linesOf(summary);
      expect(lines.filter((line) => /^ {0,3}#{1,6}(\s|$)/.test(line))).toEqual([
        expect.stringMatching(/^## evalkit contract: FAIL \(\d+ errors?\)$/),
      ]);
      // The failed and skipped checks' table, and the coverage's: a head, a separator and four kinds.
      expect(lines.filter((line) => line.startsWith('|'))).toHaveLength(listed + 2 + 6);
      // No line opens a block of its own: a quote, a list, a fence, HTML, a thematic break or setext underline.
      const blockStart = /^ {0,3}(>|[-+*]\s|\d+[.)]|```|~~~|<|-{3,}|={3,}|\s{4})/;
      expect(lines.filter((line) => blockStart.test(line))).toEqual([]);
      // No raw HTML anywhere, no comment, no mention.
      expect(summary).not.toContain('<');
      expect(summary).not.toMatch(/@\w/);
      expect(summary).toContain('&lt;details&gt;');
    });
  },
);
