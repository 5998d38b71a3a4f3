import type { RecordedRequest } from '../http/recorded-request.js';
import { recordedRoute, type Traffic } from '../http/traffic.js';
import { isJsonObject as isObject } from '../schemas/json-object.js';
import type { Change } from './changes.js';

/** How many recorded requests (a request change) or answers (a response change) a change touches, of how many. */
export interface Weight {
  touched: number;
  of: number;
  what: 'requests' | 'answers';
}

/** The values at a field path in a body, and how many of the objects that should hold the last field lack it. */
function reach(body: unknown, segments: readonly string[]): { carried: unknown[]; lacking: number } {
  let values = [body];
  let lacking = 0;
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    values = values.flatMap((value): unknown[] => {
      if (segment === '[]') return Array.isArray(value) ? value : [];
      if (segment === '*') return isObject(value) ? Object.values(value) : [];
      if (segment.startsWith('(')) return [value];
      if (!isObject(value)) return [];
      if (Object.hasOwn(value, segment)) return [value[segment]];
      if (last) lacking++;
      return [];
    });
  });
  return { carried: values.filter((value) => value !== null && value !== undefined), lacking };
}

/** A change that asks a request for a field: it touches the requests that do not send it yet. */
const asksForField = /^(added, required|made required)/;

/** A field the app may send that the new version ignores: not breaking, but what the app sends there is lost. */
const ignoredNow = /^removed: now ignored/;

/** Whether a change is weighed: a breaking one, or one that drops what a request sends. */
export function isWeighed(change: Change): boolean {
  return change.breaking || (change.part === 'request' && ignoredNow.test(change.change));
}

/** Whether a recorded request sends a header (any case) or a query parameter (as named) of this name. */
function sends(request: RecordedRequest, location: 'header' | 'query', name: string): boolean {
  return location === 'header'
    ? Object.hasOwn(request.headers, name.toLowerCase())
    : new URLSearchParams(request.query).has(name);
}

/**
 * What a change costs the recorded traffic: a field (body field, header, query parameter) now required touches the
 * requests that lack it (one every request sends touches none), any other request change the requests that send the
 * field; a response change touches the answers of that status that carried the field (all of them when the status or
 * operation is gone).
 */
export function weigh(change: Change, traffic: Traffic): Weight | undefined {
  const mine = <T extends { method: string; path: string }>(entries: T[]) =>
    entries.filter((entry) => recordedRoute(entry)?.operation === change.operation);
  if (change.location === 'operation') {
    const requests = mine(traffic.requests);
    return { touched: requests.length, of: requests.length, what: 'requests' };
  }
  if (change.part === 'response') {
    const answers = mine(traffic.answers).filter((answer) => String(answer.status) === change.status);
    const touched =
      change.segments.length === 0
        ? answers
        : answers.filter((answer) => reach(answer.body, change.segments).carried.length > 0);
    return { touched: touched.length, of: answers.length, what: 'answers' };
  }
  const requests = mine(traffic.requests);
  if (change.location === 'path') return { touched: requests.length, of: requests.length, what: 'requests' };
  const { location } = change;
  if (location === 'header' || location === 'query') {
    const name = change.segments[0] ?? '';
    const touched = requests.filter((request) => asksForField.test(change.change) !== sends(request, location, name));
    return { touched: touched.length, of: requests.length, what: 'requests' };
  }
  if (location !== 'body') return undefined;
  const bodies = requests.filter((request) => !request.truncated && typeof request.body === 'object');
  const touched = bodies.filter((request) => {
    const { carried, lacking } = reach(request.body, change.segments);
    return asksForField.test(change.change) ? lacking > 0 : carried.length > 0 || change.segments.length === 0;
  });
  return { touched: touched.length, of: bodies.length, what: 'requests' };
}
