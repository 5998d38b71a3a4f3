/**
 * Everything the user gave as a credential, kept out of every output. runContract passes the whole Report through
 * `redactReport` before returning it, so every report built from a Report (terminal, JSON, JUnit, HTML, curl
 * reproductions) is redacted whatever it prints; terminal text also goes through `escapeControlCharacters`.
 */
import { headerPlaceholder, isCredentialQueryName } from './placeholders.js';
import { LruCache } from './lru.js';

export interface Secret {
  value: string;
  placeholder: string;
}

/** Shorter values are left alone: replacing every "1" would garble findings and protect nothing. */
const minimumSecretLength = 4;

/**
 * The credential parts of a header value besides the value itself: the token after an auth scheme (`Bearer abc`
 * echoed as `abc`), and for Basic the decoded `user:password` and the password alone.
 */
function headerParts(value: string): string[] {
  const words = value.split(/[\s,;]+/).filter(Boolean);
  const parts = words.length > 1 ? words.slice(1) : [];
  if (/^basic$/i.test(words[0] ?? '') && words[1]) {
    const decoded = Buffer.from(words[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon >= 0) parts.push(decoded, decoded.slice(colon + 1));
  }
  return parts;
}

/** The credentials in a base URL (the userinfo password, credential query values) and in the user's headers. */
export function credentialsOf(baseUrl: URL, headers: Record<string, string>): Secret[] {
  const secrets: Secret[] = [];
  if (baseUrl.password) {
    const password = decodeURIComponent(baseUrl.password);
    // The userinfo travels as Basic credentials: a deployment may echo that header value.
    const basic = Buffer.from(`${decodeURIComponent(baseUrl.username)}:${password}`).toString('base64');
    secrets.push({ value: password, placeholder: '<PASSWORD>' }, { value: basic, placeholder: '<PASSWORD>' });
  }
  for (const [name, value] of baseUrl.searchParams) {
    if (isCredentialQueryName(name)) secrets.push({ value, placeholder: headerPlaceholder(name) });
  }
  for (const [name, value] of Object.entries(headers)) {
    for (const part of [value, ...headerParts(value)])
      secrets.push({ value: part, placeholder: headerPlaceholder(name) });
  }
  return secrets;
}

/** A URL as reports print it: the userinfo password and credential query values as placeholders. */
export function publicUrl(url: URL): string {
  const query = [...url.searchParams].map(([name, value]) => {
    const shown = isCredentialQueryName(name) ? headerPlaceholder(name) : encodeURIComponent(value);
    return `${encodeURIComponent(name)}=${shown}`;
  });
  const user = url.username ? `${url.username}${url.password ? ':<PASSWORD>' : ''}@` : '';
  return `${url.protocol}//${user}${url.host}${url.pathname}${query.length ? `?${query.join('&')}` : ''}`;
}

/** Decoded characters and how many characters of the original they stand for. */
interface Piece {
  chars: string;
  length: number;
}

/**
 * One encoding of a text: the pattern of its encoded sequences and what each decodes to, piece by piece so that
 * every decoded character can be traced back to where it stands in the original.
 */
interface Encoding {
  /** A character every encoded text holds: without it, there is nothing to undo. */
  marker: string;
  pattern: RegExp;
  decode(sequence: string): Piece[];
}

/** A text with one encoding undone, each character mapped back to the span of the original it came from. */
interface DecodedView {
  text: string;
  starts: Int32Array;
  ends: Int32Array;
}

function decoded(text: string, { pattern, decode }: Encoding): string {
  return text.replace(pattern, (sequence) =>
    decode(sequence)
      .map((piece) => piece.chars)
      .join(''),
  );
}

function viewOf(text: string, { pattern, decode }: Encoding): DecodedView {
  const starts = new Int32Array(text.length);
  const ends = new Int32Array(text.length);
  const parts: string[] = [];
  let size = 0;
  const plain = (from: number, to: number) => {
    parts.push(text.slice(from, to));
    for (let at = from; at < to; at++, size++) {
      starts[size] = at;
      ends[size] = at + 1;
    }
  };
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    plain(at, match.index);
    let from = match.index;
    for (const { chars, length } of decode(match[0])) {
      parts.push(chars);
      for (let unit = 0; unit < chars.length; unit++, size++) {
        starts[size] = from;
        ends[size] = from + length;
      }
      from += length;
    }
    at = match.index + match[0].length;
  }
  plain(at, text.length);
  return { text: parts.join(''), starts, ends };
}

/**
 * JSON string escapes (`\\/`, `\\"`, `\\u0041`, for every character or some) at any depth of quoting: a finding
 * quotes an answer with JSON.stringify, which doubles the backslashes of an answer that escaped a secret.
 */
const jsonEscapes: Encoding = {
  marker: '\\',
  pattern: /\\+(?:u[0-9a-fA-F]{4}|[/"])|\\+u?[0-9a-fA-F]{0,3}(?=…)|\\{2,}/g,
  decode: (sequence) => {
    const escape = /^\\+(?:u([0-9a-fA-F]{4})|([/"]))$/.exec(sequence);
    if (escape)
      return [{ chars: escape[2] ?? String.fromCharCode(parseInt(escape[1] as string, 16)), length: sequence.length }];
    // A run of backslashes is one, however often quoted; an escape cut short by evalkit's cut mark stands for nothing
    // (the secret before it is found by its start).
    return [{ chars: /^\\+$/.test(sequence) ? '\\' : '', length: sequence.length }];
  },
};

/** URL encoding: `%XX` sequences as UTF-8 (each character from its bytes), `+` as a space (forms, query strings). */
const urlEncoding: Encoding = {
  // A `+` alone (a date's offset, a sum) is read as a space only in a text that also percent-encodes.
  marker: '%',
  pattern: /\+|(?:%[0-9a-fA-F]{2})+|%[0-9a-fA-F]?(?=…)/g,
  decode: (sequence) => {
    if (sequence === '+') return [{ chars: ' ', length: 1 }];
    if (sequence.length < 3) return [{ chars: '', length: sequence.length }];
    const bytes = sequence
      .slice(1)
      .split('%')
      .map((pair) => parseInt(pair, 16));
    const pieces: Piece[] = [];
    for (let at = 0; at < bytes.length;) {
      const lead = bytes[at] as number;
      const count = Math.min(lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1, bytes.length - at);
      const chars = new TextDecoder().decode(Uint8Array.from(bytes.slice(at, at + count)));
      pieces.push(
        chars.includes('\uFFFD')
          ? { chars: sequence.slice(at * 3, at * 3 + 3), length: 3 }
          : { chars, length: count * 3 },
      );
      at += chars.includes('\uFFFD') ? 1 : count;
    }
    return pieces;
  },
};

/** Base64 fragments shorter than this are left alone: too short to be told from other text. */
const minimumBase64Length = 8;

/**
 * The base64 forms of a value (standard and URL-safe alphabets): whole, and as the characters that stay the same
 * wherever in a longer encoded text the value sits (its three alignments), so a secret inside an encoded document
 * is found too.
 */
function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const forms: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const fragment = encoded.slice(Math.ceil((4 * offset) / 3), Math.floor((4 * (offset + bytes.length)) / 3));
    if (fragment.length >= minimumBase64Length) forms.push(fragment, fragment.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

interface Found {
  start: number;
  end: number;
  placeholder: string;
}

/** The mark evalkit leaves where it cut a text (http/excerpt.ts): a secret the cut went through is there in part. */
const cutMark = '…';

/** The shortest start of a secret redacted before a cut mark: shorter ones say nothing of it. */
const minimumCutPrefix = 3;

/**
 * Past this many distinct starts the text is read once, position by position, instead of searched once per start: a
 * pseudonymizer sweeps texts for thousands of personal values (http/pseudonymizer.ts), each a search of its own.
 */
const startsSearchedOneByOne = 32;

/**
 * Where the forms stand in a text: whole, and with `cuts` also their starts just before a cut mark, up to the mark
 * (`toMark`).
 */
function occurrences(text: string, { forms, byStart }: Forms, cuts: boolean): Array<Found & { toMark: boolean }> {
  const found: Array<Found & { toMark: boolean }> = [];
  const at = (index: number, group: readonly Secret[]) => {
    for (const { value, placeholder } of group)
      if (text.startsWith(value, index))
        found.push({ start: index, end: index + value.length, placeholder, toMark: false });
  };
  if (byStart.size <= startsSearchedOneByOne) {
    for (const [start, group] of byStart)
      for (let index = text.indexOf(start); index >= 0; index = text.indexOf(start, index + 1)) at(index, group);
  } else {
    for (let index = 0; index + minimumSecretLength <= text.length; index++) {
      const group = byStart.get(text.slice(index, index + minimumSecretLength));
      if (group) at(index, group);
    }
  }
  if (!cuts) return found;
  for (let mark = text.indexOf(cutMark); mark >= 0; mark = text.indexOf(cutMark, mark + 1)) {
    for (const { value, placeholder } of forms) {
      for (let length = Math.min(value.length - 1, mark); length >= minimumCutPrefix; length--) {
        if (!text.startsWith(value.slice(0, length), mark - length)) continue;
        found.push({ start: mark - length, end: mark, placeholder, toMark: true });
        break;
      }
    }
  }
  return found;
}

interface Forms {
  forms: Secret[];
  /**
   * The forms by their first characters: one scan per shared start, since the canaries and their base64 forms share
   * theirs, and bodies run to megabytes.
   */
  byStart: Map<string, Secret[]>;
}

/**
 * The forms of the lists of secrets used last, by list. A run holds a few lists at once (its redactor's, with
 * placeholders, and the bare values an echo check looks for): one entry each, so neither rebuilds the other's.
 */
const knownForms = new LruCache<string, Forms>(8);

/** A list of secrets as one key: each part led by its length, so no two lists give the same key. */
const listKey = (secrets: readonly Secret[]) =>
  secrets.map(({ value, placeholder }) => `${value.length}:${value}${placeholder.length}:${placeholder}`).join('');

/**
 * Each secret long enough to redact, in clear and in its base64 forms, one entry per distinct form. Built once per
 * list: a report redacts each of its thousands of strings against the same few secrets.
 */
function formsOf(secrets: readonly Secret[]): Forms {
  const key = listKey(secrets);
  const known = knownForms.get(key);
  if (known) return known;
  const forms = [
    ...new Map(
      secrets
        .filter((secret) => secret.value.length >= minimumSecretLength)
        .flatMap((secret) =>
          [secret.value, ...base64Forms(secret.value)].map((value) => [value, { ...secret, value }]),
        ),
    ).values(),
  ];
  const byStart = new Map<string, Secret[]>();
  for (const form of forms) {
    const start = form.value.slice(0, minimumSecretLength);
    byStart.set(start, [...(byStart.get(start) ?? []), form]);
  }
  const built = { forms, byStart };
  knownForms.set(key, built);
  return built;
}

/**
 * One caller's last list of secrets and its forms. A report redacts thousands of strings against the same list, which
 * its caller builds anew each time: compared item by item, it costs less than the list's key in `knownForms`.
 */
class LastList<T> {
  private list: readonly T[] = [];
  private forms: Forms | undefined;

  constructor(
    private readonly same: (a: T, b: T) => boolean,
    private readonly secrets: (list: readonly T[]) => readonly Secret[],
  ) {}

  formsOf(list: readonly T[]): Forms {
    const known =
      this.forms !== undefined &&
      list.length === this.list.length &&
      list.every((item, index) => this.same(item, this.list[index] as T));
    if (!known) {
      // A copy: the caller's array may change after this call.
      this.list = [...list];
      this.forms = formsOf(this.secrets(list));
    }
    return this.forms as Forms;
  }
}

/**
 * Where the secrets stand in a text, in any encoding a deployment may echo them in: in clear, base64, JSON-escaped or
 * URL-encoded (those two undone over the whole text, so a partly escaped secret is found too). With `cuts`, a secret
 * cut short by evalkit's cut mark is found by its start. Overlapping finds are merged, so replacing them never leaves
 * part of a secret in clear.
 */
function findSecrets(text: string, forms: Forms, cuts: boolean): Found[] {
  if (forms.forms.length === 0) return [];
  const found: Found[] = occurrences(text, forms, cuts);
  for (const encoding of [jsonEscapes, urlEncoding]) {
    // Traced back only when the decoded text holds a secret at all: most texts hold none.
    if (!text.includes(encoding.marker)) continue;
    const plain = decoded(text, encoding);
    if (plain === text || occurrences(plain, forms, cuts).length === 0) continue;
    const view = viewOf(text, encoding);
    for (const { start, end, placeholder, toMark } of occurrences(view.text, forms, cuts)) {
      found.push({
        start: view.starts[start] as number,
        end: (toMark ? view.starts[end] : view.ends[end - 1]) as number,
        placeholder,
      });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Found[] = [];
  for (const next of found) {
    const last = merged[merged.length - 1];
    if (last && next.start < last.end) last.end = Math.max(last.end, next.end);
    else merged.push({ ...next });
  }
  return merged;
}

/** The echo checks' values: each exchange's strings are searched for the same few. */
const lastValues = new LastList<string>(
  (a, b) => a === b,
  (values) => values.map((value) => ({ value, placeholder: '' })),
);

/** Where any of the values stands in the text, in any encoding `findSecrets` knows: spans of the text, in order. */
export function secretSpans(text: string, values: readonly string[]): Array<{ start: number; end: number }> {
  return findSecrets(text, lastValues.formsOf(values), false);
}

/** Whether any of the values appears in the text, in any encoding `findSecrets` knows. */
export function containsSecret(text: string, values: readonly string[]): boolean {
  return secretSpans(text, values).length > 0;
}

/**
 * Replaces every secret, in any encoding `findSecrets` knows, by its placeholder; and the start of one that a cut went
 * through, so a finding that quotes an answer cut before redaction keeps no part of a secret either.
 */
export class Redactor {
  private readonly last = new LastList<Secret>(
    (a, b) => a.value === b.value && a.placeholder === b.placeholder,
    (secrets) => secrets,
  );

  constructor(private readonly secrets: () => readonly Secret[]) {}

  /** The placeholder of the first secret the text holds in any encoding, or undefined: to say which, never what. */
  find(text: string): string | undefined {
    return findSecrets(text, this.last.formsOf(this.secrets()), false)[0]?.placeholder;
  }

  /**
   * The text with every secret replaced by its placeholder. `cuts`: also a secret's start cut off by an excerpt's `…`,
   * which only evalkit's own excerpts hold; a text from a client (the pseudonymizer's) is searched without them, whose
   * search costs marks × forms.
   */
  text(text: string, cuts = true): string {
    const found = findSecrets(text, this.last.formsOf(this.secrets()), cuts);
    if (found.length === 0) return text;
    let out = '';
    let at = 0;
    for (const { start, end, placeholder } of found) {
      out += text.slice(at, start) + placeholder;
      at = end;
    }
    return out + text.slice(at);
  }
}

/** Every string anywhere in a report (messages, findings, curl commands, bodies, notes, target) redacted. */
export function redactReport<T>(value: T, redactor: Redactor): T {
  if (typeof value === 'string') return redactor.text(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactReport(item, redactor)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactReport(item, redactor)])) as T;
  }
  return value;
}

/**
 * Characters a reader cannot see for what they are: C0 and C1 controls (ESC, CR, newlines, backspace…), line and
 * paragraph separators, format characters (bidi controls U+202A-202E, U+2066-2069, U+200E/200F, U+061C; zero-width
 * U+200B-200D, U+2060-2064, U+FEFF; soft hyphen, U+180E, tag characters), lone surrogates, invisible fillers and
 * variation selectors. They move the cursor, recolour, forge a line or reorder what is shown (Trojan Source,
 * CVE-2021-42574).
 */
const invisible =
  /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u034F\u115F\u1160\u17B4\u17B5\u3164\uFFA0\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/gu;

/** Where GitHub's runner reads a workflow command anywhere in a line (its v1 `##[command]` form). */
const workflowCommand = /##\[/g;

/**
 * Server text made safe for a terminal or a CI log: every invisible character shown as an escape (`\x1b`,
 * `\u{202E}`), so a deployment cannot move the cursor, recolour, forge a line of the report or reorder it, and no
 * `##[` left for a CI runner to read as a command. `keep: 'lines'` keeps tab and newline, for text shown as a block
 * (the HTML report's excerpts).
 */
export function escapeControlCharacters(text: string, keep: 'nothing' | 'lines' = 'nothing'): string {
  return text
    .replace(invisible, (char) => {
      if (keep === 'lines' && (char === '\n' || char === '\t')) return char;
      const code = char.codePointAt(0) as number;
      return code <= 0x9f
        ? `\\x${code.toString(16).padStart(2, '0')}`
        : `\\u{${code.toString(16).toUpperCase().padStart(4, '0')}}`;
    })
    .replace(workflowCommand, '##\\x5b');
}
