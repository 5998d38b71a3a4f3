import type { OperationKey } from '../../api/operations.js';
import { capped, excerptLength } from '../../http/excerpt.js';
import { catalogue, operations, type CheckDefinition, type CheckId } from './catalogue.js';
import type { Finding, Judged, SharedFinding } from './define.js';
import { findingId } from './finding-id.js';

/** `accepted`: it failed, and an `--ignore` file accepts every one of its findings, so it fails nothing. */
export type Outcome = 'passed' | 'failed' | 'accepted' | 'skipped';

/** One id a check's findings had (finding-id.ts): how many findings had it, and whether an `--ignore` file lists it. */
export interface FoundId {
  id: string;
  count: number;
  accepted: boolean;
}

export interface CheckResult {
  id: CheckId;
  operation: string;
  severity: CheckDefinition['severity'];
  outcome: Outcome;
  message: string;
  spec: string;
  /** Every failure found, in the order found; the message shows the first few. */
  findings: string[];
  /** A failed check's first finding as a curl command, secrets and header values replaced by placeholders. */
  reproduce?: string;
  /** The request and answer behind the first finding, redacted and capped. */
  excerpts?: Excerpts;
  /** How to fix the first finding that has a known fix. */
  hint?: string;
  /**
   * The findings as a person reads them, in `findings`' order: a cause shared by many requests is its one line and the
   * requests apart, so a report lists them one per line, once (the JSON report keeps `findings`' text).
   */
  views?: FindingView[];
  /** Every id the check's findings had over the run, in the order first found; kept ones and not alike. */
  ids?: FoundId[];
  /** Findings past the first shownFindings kept ones, each counted (a finding met 78 times is 78). */
  moreFindings?: number;
  /** Findings whose id was past the ids kept (keptIds) and no --ignore file listed: none of them can be accepted. */
  unlistedIds?: number;
}

/**
 * One finding for a person: its line, the requests behind a shared answer with how many more there were, and its id
 * (none for the line counting findings not kept).
 */
export interface FindingView {
  text: string;
  requests?: readonly string[];
  moreRequests?: number;
  id?: string;
  accepted?: boolean;
}

export interface Excerpts {
  request: string;
  response: string;
}

/** An undocumented field: allowed by the spec, so a note and never a check. */
export interface Note {
  operation: string;
  message: string;
}

export const shownFindings = 3;
/** Findings kept per check, and characters kept per finding: a huge hostile body must not make a huge report. */
const keptFindings = 20;
/** Undocumented-field notes kept per operation. */
const keptNotes = 50;
/** Requests listed under one shared cause, and the characters they and the cause take at most; the rest are counted. */
const keptSubjects = 20;
const subjectChars = 1800;
/**
 * Distinct finding ids kept per check: a cause never holds what varies, so a check has a few; a deployment that makes
 * more (records each breaking another set of rules) has the rest counted, and the check cannot be wholly accepted.
 */
const keptIds = 100;

/** Requests kept per check to reproduce a finding, the first of each id: the first new one is the report's. */
const keptReproductions = 20;

/** A request behind a finding: its curl command, and the request and answer when it was the one being judged. */
interface Reproduction {
  curl: string;
  excerpts?: Excerpts;
}

/** The operation each check judges, for its findings' ids. */
const operationOfCheck = new Map(catalogue.map((check) => [check.id, check.operation]));

/** The key a shared cause is kept under among a check's findings: apart from any plain finding's text. */
const sharedKey = (cause: string) => `\u0000${cause}`;

/**
 * A shared cause as a report shows it: one request, as a plain finding reads (`POST … answered 500 …`); several, the
 * cause once and the requests that got it, as many as fit beside the cause in a finding's length, then how many more:
 * the count is never cut off.
 */
function sharedView(cause: string, subjects: readonly string[], count: number): FindingView {
  if (subjects.length === 1) return { text: capped(`${subjects[0]} ${cause}${count > 1 ? ` (${count} times)` : ''}`) };
  const listed: string[] = [];
  let length = cause.length;
  for (const subject of subjects) {
    if (length + subject.length > subjectChars) break;
    listed.push(subject);
    length += subject.length + 2;
  }
  return { text: `${count} requests ${cause}`, requests: listed, moreRequests: count - listed.length };
}

/** A finding's view as one line of text (`findings` in the JSON report): `…; they were: A; B; and 3 more`. */
function findingText({ text, requests, moreRequests = 0 }: FindingView): string {
  if (requests === undefined) return text;
  const more = moreRequests > 0 ? `; and ${moreRequests} more` : '';
  return capped(`${text}; they were: ${requests.join('; ')}${more}`);
}

/**
 * Collects what each check saw over the whole run. A check is evaluated many times (every probe, every record);
 * it fails if any evaluation failed, passes if it was evaluated and nothing failed, and is skipped otherwise.
 */
export class Verdicts {
  /** Each check's distinct findings, with how many times each was found: a place echoed in 78 answers is one. */
  private readonly findings = new Map<CheckId, Map<string, number>>();
  private readonly findingCounts = new Map<CheckId, number>();
  /** The requests behind each shared cause a check found, by its key among the check's findings. */
  private readonly subjects = new Map<CheckId, Map<string, string[]>>();
  private readonly notesDropped = new Map<OperationKey, number>();
  private readonly evaluated = new Set<CheckId>();
  private readonly skipReasons = new Map<CheckId, string>();
  private readonly noteSet = new Map<string, Note>();
  /** The first request behind each finding id of a check (up to keptReproductions): its curl command and excerpts. */
  private readonly reproductions = new Map<CheckId, Map<string, Reproduction>>();
  private readonly hints = new Map<CheckId, string>();
  /** Each check's finding ids with how many findings had each; and the findings whose id was past keptIds. */
  private readonly ids = new Map<CheckId, Map<string, number>>();
  private readonly unlistedIds = new Map<CheckId, number>();
  /** The id of each kept finding, by its key among the check's findings. */
  private readonly keptFindingIds = new Map<CheckId, Map<string, string>>();
  private current: string | undefined;
  private currentExcerpts: (() => Excerpts) | undefined;

  /**
   * `accepted`: the ids an --ignore file lists, each kept past keptIds when found, so one found late is never reported
   * stale; at most the file's ids more.
   */
  constructor(private readonly accepted: ReadonlySet<string> = new Set()) {}

  /**
   * The request whose answer is being judged, as a curl command. Checks judge each answer as soon as it arrives and
   * before the next request goes out, so a failure recorded now belongs to this request.
   */
  judging(curl: string, excerpts?: () => Excerpts): void {
    this.current = curl;
    // Made once per answer, however many of its findings keep a reproduction: an answer of 1,500 broken records has
    // up to keptReproductions ids, and each excerpt reads the whole body.
    let made: Excerpts | undefined;
    this.currentExcerpts = excerpts && (() => (made ??= excerpts()));
  }

  pass(id: CheckId): void {
    this.evaluated.add(id);
  }

  /** Records a finding; `reproduce` names the request explicitly where it is not the one being judged. */
  fail(id: CheckId, finding: Finding | SharedFinding, reproduce = this.current): void {
    this.evaluated.add(id);
    const found = findingId(operationOfCheck.get(id) as OperationKey, id, finding.cause);
    this.count(id, found, 1);
    if ('text' in finding) this.keep(id, capped(finding.text), 1, keptFindings, found);
    // A report lists a shared answer's requests one per line: a path or query from the deployment or the proxied app
    // must not make one of them a flood.
    else this.share(id, capped(finding.answer), [capped(finding.subject, excerptLength)], 1, keptFindings, found);
    this.findingCounts.set(id, (this.findingCounts.get(id) ?? 0) + 1);
    const reproductions = this.reproductions.get(id) ?? new Map<string, Reproduction>();
    if (reproduce !== undefined && !reproductions.has(found) && reproductions.size < keptReproductions) {
      // Excerpts belong to the request being judged, not to one named explicitly.
      const excerpts = reproduce === this.current ? this.currentExcerpts?.() : undefined;
      reproductions.set(found, { curl: reproduce, ...(excerpts ? { excerpts } : {}) });
      this.reproductions.set(id, reproductions);
    }
  }

  /** Counts `count` findings of the id `found`, kept while the check has fewer than keptIds distinct ones. */
  private count(id: CheckId, found: string, count: number): void {
    const ids = this.ids.get(id) ?? new Map<string, number>();
    if (ids.has(found) || ids.size < keptIds || this.accepted.has(found)) ids.set(found, (ids.get(found) ?? 0) + count);
    else this.unlistedIds.set(id, (this.unlistedIds.get(id) ?? 0) + count);
    this.ids.set(id, ids);
  }

  /** Counts a finding, kept (with its id, the first one's) while the check has fewer than `max` distinct ones. */
  private keep(id: CheckId, finding: string, count: number, max: number, found: string): void {
    const kept = this.findings.get(id) ?? new Map<string, number>();
    if (kept.has(finding) || kept.size < max) kept.set(finding, (kept.get(finding) ?? 0) + count);
    this.findings.set(id, kept);
    const ids = this.keptFindingIds.get(id) ?? new Map<string, string>();
    if (kept.has(finding) && !ids.has(finding)) ids.set(finding, found);
    this.keptFindingIds.set(id, ids);
  }

  /** Counts a shared answer and keeps the requests behind it, up to keptSubjects. */
  private share(
    id: CheckId,
    answer: string,
    subjects: readonly string[],
    count: number,
    max: number,
    found: string,
  ): void {
    const key = sharedKey(answer);
    this.keep(id, key, count, max, found);
    if (!this.findings.get(id)?.has(key)) return;
    const byCause = this.subjects.get(id) ?? new Map<string, string[]>();
    const kept = byCause.get(key) ?? [];
    for (const subject of subjects) if (kept.length < keptSubjects && !kept.includes(subject)) kept.push(subject);
    byCause.set(key, kept);
    this.subjects.set(id, byCause);
  }

  /** Keeps the first fix found for a check's findings. */
  hint(id: CheckId, hint: string | undefined): void {
    if (hint !== undefined && !this.hints.has(id)) this.hints.set(id, capped(hint));
  }

  /** Records what a check's code made of one exchange. */
  record(id: CheckId, judged: Judged): void {
    if (judged === undefined) return;
    if ('skip' in judged) return this.skip(id, judged.skip);
    if (judged.length === 0) this.pass(id);
    for (const finding of judged) this.fail(id, finding);
  }

  skip(id: CheckId, reason: string): void {
    if (!this.skipReasons.has(id)) this.skipReasons.set(id, reason);
  }

  note(operation: OperationKey, message: string): void {
    const key = `${operation} ${message}`;
    if (this.noteSet.has(key)) return;
    if ([...this.noteSet.values()].filter((note) => note.operation === operations[operation]).length >= keptNotes) {
      this.notesDropped.set(operation, (this.notesDropped.get(operation) ?? 0) + 1);
      return;
    }
    this.noteSet.set(key, { operation: operations[operation], message: capped(message) });
  }

  /**
   * Adds what another Verdicts saw, keeping at most `maxFindings` findings per check, each passed through `redact`
   * as it is kept: the proxy judges each exchange on its own, to print its findings as they happen, and runs for as
   * long as traffic flows, so the secrets it knows of when the run ends may no longer include one a finding quoted.
   */
  absorb(other: Verdicts, maxFindings: number, redact: (text: string) => string): void {
    for (const id of other.evaluated) this.evaluated.add(id);
    for (const [id, found] of other.findings) {
      for (const [finding, count] of found) {
        const shared = other.subjects.get(id)?.get(finding);
        const keptId = other.keptFindingIds.get(id)?.get(finding) as string;
        if (shared === undefined) this.keep(id, redact(finding), count, maxFindings, keptId);
        else this.share(id, redact(finding.slice(1)), shared.map(redact), count, maxFindings, keptId);
      }
      this.findingCounts.set(id, (this.findingCounts.get(id) ?? 0) + (other.findingCounts.get(id) ?? 0));
    }
    for (const [id, ids] of other.ids) for (const [found, count] of ids) this.count(id, found, count);
    for (const [id, count] of other.unlistedIds) this.unlistedIds.set(id, (this.unlistedIds.get(id) ?? 0) + count);
    for (const [id, reason] of other.skipReasons) this.skip(id, reason);
    for (const [key, note] of other.noteSet) this.noteSet.set(key, { ...note, message: redact(note.message) });
    for (const [id, theirs] of other.reproductions) {
      const reproductions = this.reproductions.get(id) ?? new Map<string, Reproduction>();
      for (const [found, reproduction] of theirs)
        if (!reproductions.has(found) && reproductions.size < keptReproductions) reproductions.set(found, reproduction);
      this.reproductions.set(id, reproductions);
    }
    for (const [id, hint] of other.hints) this.hint(id, redact(hint));
  }

  notes(): Note[] {
    const dropped = [...this.notesDropped].map(([operation, count]) => ({
      operation: operations[operation],
      message: `and ${count} more undocumented fields`,
    }));
    return [...this.noteSet.values(), ...dropped];
  }

  /**
   * Each check's result. `accepted`: the ids an `--ignore` file lists: a finding with one is marked so and listed after
   * the others (the message names the new ones first), and a check all of whose findings are accepted is `accepted`,
   * failing nothing.
   */
  results(accepted: ReadonlySet<string> = new Set()): CheckResult[] {
    return catalogue.map((check) => {
      const kept = [...(this.findings.get(check.id) ?? [])];
      const listed = kept.reduce((sum, [, count]) => sum + count, 0);
      const total = this.findingCounts.get(check.id) ?? 0;
      const shared = this.subjects.get(check.id);
      const keptIds = this.keptFindingIds.get(check.id);
      const idOf = (finding: string) => keptIds?.get(finding) as string;
      // New findings first: a run that fails says why in its first lines.
      const ordered = [
        ...kept.filter(([finding]) => !accepted.has(idOf(finding))),
        ...kept.filter(([finding]) => accepted.has(idOf(finding))),
      ];
      const views = ordered.map(([finding, count]): FindingView => {
        const subjects = shared?.get(finding);
        const id = { id: idOf(finding), accepted: accepted.has(idOf(finding)) };
        if (subjects !== undefined) return { ...sharedView(finding.slice(1), subjects, count), ...id };
        return { text: count > 1 ? `${finding} (${count} times)` : finding, ...id };
      });
      if (total > listed) views.push({ text: `and ${total - listed} more findings` });
      const findings = views.map(findingText);
      const base = {
        id: check.id,
        operation: operations[check.operation],
        severity: check.severity,
        spec: check.spec,
        findings,
      };
      if (findings.length > 0) {
        const shown = ordered.slice(0, shownFindings).reduce((sum, [, count]) => sum + count, 0);
        const more = total > shown ? `; and ${total - shown} more` : '';
        // The request behind the first new finding: a run that fails shows how to replay what failed it.
        const reproductions = this.reproductions.get(check.id);
        const [, first] = [...(reproductions ?? [])].find(([found]) => !accepted.has(found)) ?? [];
        const { curl: reproduce, excerpts } = first ?? [...(reproductions?.values() ?? [])][0] ?? {};
        const hint = this.hints.get(check.id);
        const ids = [...(this.ids.get(check.id) ?? [])].map(([id, count]) => ({
          id,
          count,
          accepted: accepted.has(id),
        }));
        const unlistedIds = this.unlistedIds.get(check.id) ?? 0;
        const allAccepted = ids.length > 0 && unlistedIds === 0 && ids.every((found) => found.accepted);
        return {
          ...base,
          outcome: allAccepted ? 'accepted' : 'failed',
          message: `${findings.slice(0, shownFindings).join('; ')}${more}`,
          ...(reproduce ? { reproduce } : {}),
          ...(excerpts ? { excerpts } : {}),
          ...(hint ? { hint } : {}),
          views,
          ...(total > shown ? { moreFindings: total - shown } : {}),
          ids,
          ...(unlistedIds > 0 ? { unlistedIds } : {}),
        };
      }
      if (this.evaluated.has(check.id)) return { ...base, outcome: 'passed', message: check.title };
      return {
        ...base,
        outcome: 'skipped',
        message: this.skipReasons.get(check.id) ?? 'not evaluated: no response it applies to',
      };
    });
  }
}
