import { isProfile, profiles, type Profile } from '../../generators/profile.js';
import {
  eraFrom,
  eraNames,
  evaluationStateFrom,
  evaluationStateNames,
  evaluationStates,
  evaluationStateTypedNames,
  isReleaseBeforeEras,
  oldestKnownReleaseName,
  type EraName,
  type EvaluationState,
} from '../../generators/vocabulary.js';
import { scenarioKeys, type ScenarioKey } from '../../api/scenario-keys.js';
import { instantMicros } from './clock.js';
import { escapeControlCharacters } from '../../http/redaction.js';
import { isRenderable, renderableMoments } from '../../generators/moments.js';
import { faults, isFault, type Fault } from './faults.js';
import { formatLatency, maxLatencyMs, parseLatency, type LatencyRange } from './latency.js';
import { isScenarioCode, scenarioCodes } from './scenario-answers.js';
import { MockSetupError } from './setup-error.js';
import { didYouMean } from '../../http/spelling.js';

/**
 * How to answer: a scenario. Set per server (flags, config file) and per request (the `Prefer` header); every key is
 * optional and a more specific scenario overrides a more general one key by key.
 */
export interface Scenario {
  /** Answer with this status and its canned body instead of the resource (200: answer normally). */
  code?: number;
  /** The lifecycle state served: Evaluation.status.value and HumanEvaluation.status. */
  state?: EvaluationState;
  latency?: LatencyRange;
  fault?: Fault;
  /** Send absent optional fields as explicit null, as real deployments do (outside the spec). */
  nullable?: boolean;
  /**
   * Refuse `null` in an optional request field with a 422, the spec's letter; by default it reads as absent, as the
   * real service (pydantic) reads it.
   */
  strictNulls?: boolean;
  profile?: Profile;
  seed?: string;
  /**
   * The moment requests are answered at, an RFC 3339 date-time, instead of the clock: a created Evaluation's
   * `created_at`, so snapshots of answers stay byte-stable.
   */
  now?: string;
  /**
   * The real service's era (generators/vocabulary.ts, serviceEras): the state a create answers when no `state` is set,
   * and the id style when the request's ids imply none.
   */
  era?: EraName;
  /** Send the era's date-time forms (naive, or with a space), as the real service does (outside the spec). */
  eraDates?: boolean;
  /**
   * Milliseconds each phase of a human evaluation lasts, from the moment it is first served: EVALUATION_INITIALIZED,
   * then EVALUATION_STARTED, then its final state, as a polling UI sees the real service move a run along.
   */
  progress?: number;
}

/** A day: a phase longer than that is no demo of a polling UI, and an hour's worth of typos stays bounded. */
const maxProgressMs = 86_400_000;

/** A scenario with the generation inputs settled: what a request is answered with. */
export type ResolvedScenario = Scenario & { profile: Profile; seed: string };

export { scenarioKeys, type ScenarioKey };

/**
 * A name a caller gave, as a refusal quotes it: at most 40 characters, so an answer stays the size of its reason
 * whatever the name's length (a million-character section name is named by its start).
 */
export function shownName(name: string): string {
  return name.length > 40 ? `${name.slice(0, 40)}…` : name;
}

/** A scenario value that cannot be used; the message names the key and the accepted values, never more. */
export class ScenarioError extends MockSetupError {
  override name = 'ScenarioError';
}

const booleans = ['true', 'false'];

/**
 * The values of each key that takes one from a list, as the control room lists them; a key of any number or text
 * (`latency`, `seed`, `now`, `progress`) takes `text`. Keyed by every key, so a new key owes its list here.
 */
export const listedValues: Readonly<Record<ScenarioKey, readonly string[] | 'text'>> = {
  code: scenarioCodes.map(String),
  state: evaluationStates,
  latency: 'text',
  fault: faults,
  nullable: booleans,
  strictNulls: booleans,
  profile: profiles,
  seed: 'text',
  now: 'text',
  era: eraNames,
  eraDates: booleans,
  progress: 'text',
};

/**
 * The values of a key a person types, for the value a typo meant (`state=faild`: failed, `code=4044`: 404): the listed
 * ones, the states' short forms too; none for a key of any number or text.
 */
function typedValues(key: ScenarioKey): readonly string[] {
  const listed = typedForms[key] ?? listedValues[key];
  return listed === 'text' ? [] : listed;
}

/** Values typed in other forms than the listed ones: a state's short form (`failed`) as well as its name. */
const typedForms: Partial<Record<ScenarioKey, readonly string[]>> = { state: evaluationStateTypedNames };

const accepted: Record<ScenarioKey, string> = {
  code: scenarioCodes.join(', '),
  state: evaluationStateNames,
  latency: `MS or MIN-MAX, at most ${maxLatencyMs}`,
  fault: faults.join(', '),
  nullable: 'true, false',
  strictNulls: 'true, false',
  profile: profiles.join(', '),
  seed: 'any string of 1 to 100 characters',
  now:
    `an RFC 3339 date-time that exists, ${renderableMoments.text} (ids carry their moment), ` +
    'e.g. 2025-06-01T12:00:00Z',
  era: `${eraNames.join(', ')} (or the release run, from ${oldestKnownReleaseName}, e.g. v0.18.2)`,
  eraDates: 'true, false',
  progress: `MS, the length of each phase: 1 to ${maxProgressMs}`,
};

function isScenarioKey(key: string): key is ScenarioKey {
  return (scenarioKeys as readonly string[]).includes(key);
}

function entryValue(key: ScenarioKey, text: string): Scenario[ScenarioKey] {
  switch (key) {
    case 'code':
      return /^\d{3}$/.test(text) && isScenarioCode(Number(text)) ? Number(text) : undefined;
    case 'state':
      return evaluationStateFrom(text);
    case 'latency':
      return parseLatency(text);
    case 'fault':
      return isFault(text) ? text : undefined;
    case 'nullable':
    case 'strictNulls':
    case 'eraDates':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'profile':
      return isProfile(text) ? text : undefined;
    case 'seed':
      return text.length >= 1 && text.length <= 100 ? text : undefined;
    case 'now': {
      const micros = instantMicros(text);
      return micros !== undefined && isRenderable(micros) ? text : undefined;
    }
    case 'era':
      return eraFrom(text);
    case 'progress':
      return /^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= maxProgressMs ? Number(text) : undefined;
  }
}

/**
 * What a refused value most likely meant, or why it is refused, before the list of what the key accepts, so a log
 * line cut to its start still carries it: a release older than the eras is named so rather than taken for a typo of
 * an era's name. Empty when neither.
 */
function refusalNote(key: ScenarioKey, text: string): string {
  if (key === 'era' && isReleaseBeforeEras(text))
    return `, a release before ${oldestKnownReleaseName}, which no era describes.`;
  return didYouMean(text, typedValues(key), 1);
}

/** One `key=value` of a scenario, from a Prefer header, a flag or a config file. */
export function scenarioEntry(key: string, value: unknown): Scenario {
  if (!isScenarioKey(key))
    throw new ScenarioError(
      `unknown scenario key '${shownName(key)}'${didYouMean(key, scenarioKeys)} (keys: ${scenarioKeys.join(', ')})`,
    );
  const text =
    typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
  const parsed = text === undefined ? undefined : entryValue(key, text);
  if (parsed === undefined) {
    if (text === undefined) throw new ScenarioError(`scenario key '${key}' accepts ${accepted[key]}`);
    const why = refusalNote(key, text);
    if (why === '') throw new ScenarioError(`scenario key '${key}' accepts ${accepted[key]}`);
    throw new ScenarioError(
      `scenario key '${key}' does not accept '${escapeControlCharacters(shownName(text))}'${why} ` +
        `It accepts ${accepted[key]}`,
    );
  }
  return { [key]: parsed };
}

/** A scenario from an object of key/value pairs (a config file's entry). */
export function scenarioFrom(entries: Record<string, unknown>): Scenario {
  return Object.assign({}, ...Object.entries(entries).map(([key, value]) => scenarioEntry(key, value))) as Scenario;
}

/**
 * A Prefer header's preferences: split at commas and semicolons outside double quotes, so a quoted value keeps its
 * own (`seed="story, 2"`). One pass over the characters: a 100 KB hostile header costs what its length does.
 */
function preferTokens(header: string): string[] {
  const tokens: string[] = [];
  let start = 0;
  let quoted = false;
  for (let index = 0; index < header.length; index++) {
    const char = header[index];
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === ',' || char === ';')) {
      tokens.push(header.slice(start, index));
      start = index + 1;
    }
  }
  const last = header.slice(start);
  if (quoted) {
    const key = last.slice(0, Math.max(0, last.indexOf('='))).trim();
    throw new ScenarioError(`Prefer: the quoted value of '${shownName(key)}' is not closed`);
  }
  tokens.push(last);
  return tokens;
}

/**
 * RFC 7240's own preferences (names compared in any case). A client library may send them to every API it calls
 * (`return=representation` from PostgREST-style clients); the real service ignores them, so the mock does too.
 */
const httpPreferences: ReadonlySet<string> = new Set(['respond-async', 'return', 'wait', 'handling']);

/**
 * The scenario a `Prefer` header asks for, in Prism's style: `Prefer: code=404` or `Prefer: state=failed, latency=200`.
 * Preferences are separated by commas or semicolons; values may be quoted. An unknown key is an error rather than
 * ignored (as RFC 7240 would have it): in a mock, a silently ignored typo costs more than a 400. RFC 7240's own
 * preferences are no typo: they pass by, unapplied.
 */
export function parsePrefer(header: string): Scenario {
  const scenario: Scenario = {};
  for (const token of preferTokens(header)) {
    const trimmed = token.trim();
    if (trimmed === '') continue;
    const equals = trimmed.indexOf('=');
    if (httpPreferences.has((equals < 0 ? trimmed : trimmed.slice(0, equals)).trim().toLowerCase())) continue;
    if (equals < 0)
      throw new ScenarioError(`Prefer: '${shownName(trimmed)}' is not key=value (keys: ${scenarioKeys.join(', ')})`);
    const value = trimmed
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    Object.assign(scenario, scenarioEntry(trimmed.slice(0, equals).trim(), value));
  }
  return scenario;
}

/** A scenario's keys as plain values, the way a scenario config file writes them (latency as `MS` or `MIN-MAX`). */
export function scenarioValues(scenario: Scenario): Record<string, string | number | boolean> {
  const values: Record<string, string | number | boolean> = {};
  for (const key of scenarioKeys) {
    const value = scenario[key];
    if (value !== undefined)
      values[key] = key === 'latency' ? formatLatency(value as LatencyRange) : (value as string | number | boolean);
  }
  return values;
}

/** A scenario back in Prefer syntax, for the Preference-Applied header; a value holding a separator is quoted. */
export function formatScenario(scenario: Scenario): string {
  return Object.entries(scenarioValues(scenario))
    .map(([key, value]) => `${key}=${/[\s,;]/.test(String(value)) ? `"${String(value)}"` : String(value)}`)
    .join(', ');
}
