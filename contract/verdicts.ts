import { catalogue, operations, type CheckDefinition } from './catalogue.js';
import { excerptLength } from './excerpt.js';

export type Outcome = 'passed' | 'failed' | 'skipped';

export interface CheckResult {
  id: string;
  operation: string;
  severity: CheckDefinition['severity'];
  outcome: Outcome;
  message: string;
  spec: string;
  /** Every failure found, in the order found; the message shows the first few. */
  findings: string[];
  /** A failed check's first finding as a curl command, secrets and header values replaced by placeholders. */
  reproduce?: string;
}

/** An undocumented field: allowed by the spec, so a note and never a check. */
export interface Note {
  operation: string;
  message: string;
}

const shownFindings = 3;
/** Findings kept per check, and characters kept per finding: a huge hostile body must not make a huge report. */
const keptFindings = 20;
const findingLength = 10 * excerptLength;
/** Undocumented-field notes kept per operation. */
const keptNotes = 50;

function capped(text: string): string {
  return text.length <= findingLength ? text : `${text.slice(0, findingLength)}… (${text.length} characters in all)`;
}

/**
 * Collects what each check saw over the whole run. A check is evaluated many times (every probe, every record);
 * it fails if any evaluation failed, passes if it was evaluated and nothing failed, and is skipped otherwise.
 */
export class Verdicts {
  private readonly findings = new Map<string, string[]>();
  private readonly findingCounts = new Map<string, number>();
  private readonly notesDropped = new Map<string, number>();
  private readonly evaluated = new Set<string>();
  private readonly skipReasons = new Map<string, string>();
  private readonly noteSet = new Map<string, Note>();
  private readonly reproductions = new Map<string, string>();
  private current: string | undefined;

  /**
   * The request whose answer is being judged, as a curl command. Checks judge each answer as soon as it arrives and
   * before the next request goes out, so a failure recorded now belongs to this request.
   */
  judging(curl: string): void {
    this.current = curl;
  }

  pass(id: string): void {
    this.evaluated.add(id);
  }

  /** Records a finding; `reproduce` names the request explicitly where it is not the one being judged. */
  fail(id: string, finding: string, reproduce = this.current): void {
    this.evaluated.add(id);
    const list = this.findings.get(id) ?? [];
    if (list.length < keptFindings) list.push(capped(finding));
    this.findings.set(id, list);
    this.findingCounts.set(id, (this.findingCounts.get(id) ?? 0) + 1);
    if (reproduce !== undefined && !this.reproductions.has(id)) this.reproductions.set(id, reproduce);
  }

  /** Passes when `finding` is undefined, fails with it otherwise. */
  expect(id: string, finding: string | undefined): void {
    if (finding === undefined) this.pass(id);
    else this.fail(id, finding);
  }

  skip(id: string, reason: string): void {
    if (!this.skipReasons.has(id)) this.skipReasons.set(id, reason);
  }

  note(operation: keyof typeof operations, message: string): void {
    const key = `${operation} ${message}`;
    if (this.noteSet.has(key)) return;
    if ([...this.noteSet.values()].filter((note) => note.operation === operations[operation]).length >= keptNotes) {
      this.notesDropped.set(operation, (this.notesDropped.get(operation) ?? 0) + 1);
      return;
    }
    this.noteSet.set(key, { operation: operations[operation], message: capped(message) });
  }

  notes(): Note[] {
    const dropped = [...this.notesDropped].map(([operation, count]) => ({ operation: operations[operation as keyof typeof operations], message: `and ${count} more undocumented fields` }));
    return [...this.noteSet.values(), ...dropped];
  }

  results(): CheckResult[] {
    return catalogue.map((check) => {
      const kept = this.findings.get(check.id) ?? [];
      const total = this.findingCounts.get(check.id) ?? 0;
      const findings = total > kept.length ? [...kept, `and ${total - kept.length} more findings`] : kept;
      const base = { id: check.id, operation: operations[check.operation], severity: check.severity, spec: check.spec, findings };
      if (findings.length > 0) {
        const more = total > shownFindings ? `; and ${total - shownFindings} more` : '';
        const reproduce = this.reproductions.get(check.id);
        return { ...base, outcome: 'failed', message: `${findings.slice(0, shownFindings).join('; ')}${more}`, ...(reproduce ? { reproduce } : {}) };
      }
      if (this.evaluated.has(check.id)) return { ...base, outcome: 'passed', message: check.title };
      return { ...base, outcome: 'skipped', message: this.skipReasons.get(check.id) ?? 'not evaluated: no response it applies to' };
    });
  }
}
