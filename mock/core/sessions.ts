import { pathStart } from '../../api/match.js';
import type { OperationId } from '../../api/operations.js';
import { escapeControlCharacters } from '../../http/redaction.js';
import { LruCache } from '../../http/lru.js';
import { HttpProblem } from './errors.js';
import { Progress } from './progress.js';
import type { RequestHeaders } from './request-answer.js';
import {
  fileData,
  parseScenarioFile,
  type ScenarioBook,
  type ScenarioFile,
  type ScenarioFileData,
} from './scenario-book.js';
import { ScenarioError, shownName, type ResolvedScenario, type Scenario } from './scenarios.js';

/**
 * Sessions: one mock shared by many tests at once (Playwright workers, server-side rendering, Storybook), each test's
 * requests answered by its own scenario and progress clock, and kept apart in the journal. A request names its session
 * by a header, a cookie, or a path prefix before the mock's base path (for server-side code, which only sets a base
 * URL); a request that names none is the server's, as before.
 */
export const sessionHeader = 'x-evalkit-session';
export const sessionCookie = 'evalkit-session';
const sessionPrefix = '/__sessions/';

/** Sessions kept at once: the least recently used is dropped past this (its scenario and its progress with it). */
export const maxSessions = 1_000;
/** A session unused this long is dropped when next named: it starts over with no scenario of its own. */
export const sessionIdleMs = 30 * 60_000;
/**
 * A session's own scenario at most, in characters of JSON: a test's rules, a few ids' worth. The sessions kept at once
 * then hold at most maxSessions times this, where the server's one scenario may take a whole 1 MiB body.
 */
export const maxSessionScenarioChars = 16 * 1024;
/** Records whose progress each session follows: one test's working set (the server follows `followedRecords`). */
const sessionFollowedRecords = 100;

/** A session's name: one path segment's worth of URL-safe characters, as it travels in a path, a header or a cookie. */
const namePattern = /^[A-Za-z0-9._~-]{1,64}$/;

/** The rule a session name keeps, as refusals state it. */
const sessionNameRule = '1 to 64 letters, digits, or . _ ~ - (not . or ..)';

/** Whether text is a session name: never a dot segment, which would step along a path. */
export function isSessionName(text: string): boolean {
  return namePattern.test(text) && text !== '.' && text !== '..';
}

/** The 400 of a name that breaks the rule, saying where it was; the name cut and its controls shown escaped. */
export function sessionNameProblem(where: string, name: string): HttpProblem {
  const shown = escapeControlCharacters(shownName(name));
  return new HttpProblem(400, `${where} names session '${shown}': a session name is ${sessionNameRule}`);
}

/** The value of cookie `name` in a Cookie header (RFC 6265: `a=1; b=2`), or undefined. Allocates only for a match. */
function cookieValue(header: string | string[], name: string): string | undefined {
  if (typeof header !== 'string') {
    for (const line of header) {
      const value = cookieValue(line, name);
      if (value !== undefined) return value;
    }
    return undefined;
  }
  if (!header.includes(name)) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name)
      return pair
        .slice(at + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
  }
  return undefined;
}

/** The session a request names and its URL without the session's path prefix. */
export interface SessionRoute {
  session: string;
  url: string;
}

/** Where the session prefix starts in a URL (a path, or an absolute URL as MSW gives it), or -1 without one. */
function prefixStart(url: string): number {
  const start = url.charCodeAt(0) === 47 ? 0 : pathStart(url);
  return start >= 0 && url.startsWith(sessionPrefix, start) ? start : -1;
}

/** The name after the session prefix, kept to the rule or not, and the URL without the prefix; undefined for none. */
function prefixed(url: string): { name: string; url: string } | undefined {
  const start = prefixStart(url);
  if (start < 0) return undefined;
  const nameStart = start + sessionPrefix.length;
  let end = nameStart;
  while (end < url.length && url[end] !== '/' && url[end] !== '?') end += 1;
  const rest = url.slice(end);
  return { name: url.slice(nameStart, end), url: `${url.slice(0, start)}${rest.startsWith('/') ? rest : `/${rest}`}` };
}

/**
 * The session a request names, and its URL with the session prefix taken off; undefined when it names none. The path
 * prefix wins over the header, and the header over the cookie: the most explicit says. A name that breaks the rule is
 * a 400 saying where it was. A request naming none costs a prefix test, a header lookup and, only when it carries
 * cookies, a substring test, and allocates nothing (bench:mock).
 */
export function sessionRoute(url: string, headers: RequestHeaders): SessionRoute | undefined {
  const prefix = prefixed(url);
  if (prefix !== undefined) {
    if (!isSessionName(prefix.name)) throw sessionNameProblem(`the path prefix ${sessionPrefix}NAME`, prefix.name);
    return { session: prefix.name, url: prefix.url };
  }
  const header = headers[sessionHeader];
  if (header !== undefined) {
    const named = Array.isArray(header) ? (header[0] as string) : header;
    if (!isSessionName(named)) throw sessionNameProblem(`the ${sessionHeader} header`, named);
    return { session: named, url };
  }
  const cookies = headers.cookie;
  if (cookies === undefined) return undefined;
  const cookie = cookieValue(cookies, sessionCookie);
  if (cookie === undefined) return undefined;
  if (!isSessionName(cookie)) throw sessionNameProblem(`the ${sessionCookie} cookie`, cookie);
  return { session: cookie, url };
}

/** Whether a URL's path starts with the session prefix: the mock's to answer, a 400 when its name is bad. */
export function sessionPrefixed(url: string): boolean {
  return prefixStart(url) >= 0;
}

/** The URL without its session prefix, whatever name it carries; as given without one. */
export function withoutSessionPrefix(url: string): string {
  return prefixed(url)?.url ?? url;
}

/** Whether a URL starts with the session prefix and a name that breaks the rule: the mock's 400, never forwarded. */
export function badSessionPrefix(url: string): boolean {
  const prefix = prefixed(url);
  return prefix !== undefined && !isSessionName(prefix.name);
}

/** What an operation's answer reads its scenario from: the server's book, or a session's over it. */
interface ScenarioSource {
  forOperation(operation: OperationId): ResolvedScenario;
  forHumanEvaluation(id: string): ResolvedScenario;
}

/** What a request is answered with beyond its own headers: its scenarios and the progress clock it moves. */
export interface RequestContext {
  scenarios: ScenarioSource;
  progress: Progress;
  /** The session's name; absent for the server's requests. */
  session?: string;
}

/**
 * A session's scenario over the server's: a key the session sets wins over the server's at every level (its own
 * general scenario over the server's rule for an operation or id), and within the session the most specific wins, as
 * on the server; a key it leaves unset is the server's. Rebuilt when the server's book is replaced.
 */
class SessionBook implements ScenarioSource {
  private server: ScenarioBook | undefined;
  private readonly byOperation = new Map<OperationId, ResolvedScenario>();

  /** The session's own keys for any fetched record: its general scenario, then its fetch rule over it. */
  private readonly fetchRule: Scenario;

  constructor(
    private readonly file: ScenarioFile,
    private readonly holder: { current: ScenarioBook },
  ) {
    this.fetchRule = { ...file.scenario, ...file.operations.fetchHumanEvaluation };
  }

  private current(): ScenarioBook {
    if (this.server !== this.holder.current) {
      this.server = this.holder.current;
      this.byOperation.clear();
    }
    return this.server;
  }

  forOperation(operation: OperationId): ResolvedScenario {
    const server = this.current();
    let scenario = this.byOperation.get(operation);
    if (scenario === undefined) {
      scenario = { ...server.forOperation(operation), ...this.file.scenario, ...this.file.operations[operation] };
      this.byOperation.set(operation, scenario);
    }
    return scenario;
  }

  forHumanEvaluation(id: string): ResolvedScenario {
    const server = this.current();
    return { ...server.forHumanEvaluation(id), ...this.fetchRule, ...this.file.humanEvaluations.get(id) };
  }
}

/** A session as the control room lists it: its name, when it was last used, its own scenario. */
export interface SessionView {
  name: string;
  last_seen: string;
  scenario: ScenarioFileData;
}

interface Session {
  context: RequestContext;
  data: ScenarioFileData;
  lastSeen: number;
}

const noScenario: ScenarioFile = { scenario: {}, operations: {}, humanEvaluations: new Map() };

/**
 * The sessions the mock knows, bounded: at most `maxSessions` (the least recently used dropped), each dropped when
 * named again after `sessionIdleMs` unused. A session is made when a request or the control room first names it.
 */
export class Sessions {
  private readonly byName = new LruCache<string, Session>(maxSessions);

  constructor(
    private readonly holder: { current: ScenarioBook },
    private readonly now: () => number = Date.now,
  ) {}

  /** The session's context, made (with no scenario of its own) when new or idle past `sessionIdleMs`. */
  context(name: string): RequestContext {
    return this.session(name).context;
  }

  private session(name: string): Session {
    const moment = this.now();
    let session = this.live(name, moment);
    if (session === undefined) {
      session = this.made(name, fileData(noScenario), noScenario, new Progress(sessionFollowedRecords));
      this.byName.set(name, session);
    }
    session.lastSeen = moment;
    return session;
  }

  /** The session of that name, unless none is kept or it went unused past sessionIdleMs: then it starts over. */
  private live(name: string, moment: number): Session | undefined {
    const session = this.byName.get(name);
    return session !== undefined && moment - session.lastSeen <= sessionIdleMs ? session : undefined;
  }

  private made(name: string, data: ScenarioFileData, file: ScenarioFile, progress: Progress): Session {
    return {
      context: { scenarios: new SessionBook(file, this.holder), progress, session: name },
      data,
      lastSeen: this.now(),
    };
  }

  /** The session's own scenario, in a scenario file's shape (empty sections: the server's throughout). */
  scenario(name: string): ScenarioFileData {
    return this.session(name).data;
  }

  /**
   * Puts a scenario config in force for the session, `{}` none of its own. Throws a ScenarioError naming the entry at
   * fault, and then keeps the old one.
   */
  replace(name: string, data: unknown): ScenarioFileData {
    const file = parseScenarioFile(data);
    const size = JSON.stringify(data).length;
    if (size > maxSessionScenarioChars)
      throw new ScenarioError(
        `a session's scenario is at most ${maxSessionScenarioChars} characters of JSON, this one ${size}: ` +
          'sessions are kept a thousand at once; put rules every session shares in the server scenario',
      );
    // A new scenario keeps the records the session follows moving: only a session started over forgets them.
    const progress = this.live(name, this.now())?.context.progress ?? new Progress(sessionFollowedRecords);
    const session = this.made(name, fileData(file), file, progress);
    this.byName.set(name, session);
    return session.data;
  }

  /** The sessions kept, least recently used first, with when each was last used and its own scenario. */
  list(): SessionView[] {
    return [...this.byName.values()].map((session) => ({
      name: session.context.session as string,
      last_seen: new Date(session.lastSeen).toISOString(),
      scenario: session.data,
    }));
  }
}
