import { pathStart } from '../../api/match.js';

/**
 * Where the control room lives, at the root whatever the base path: the API's paths never start with it. On its own
 * so that `evalkit mock --help` can name it without loading the control room.
 */
export const controlPrefix = '/__evalkit';
/** The event stream's path: answered by an adapter that can stream (the Node server), not by the admin routes. */
export const eventsPath = `${controlPrefix}/events`;

/**
 * Whether a request URL is the control room's: the prefix itself or a path under it, never `/__evalkitx`. Asked of
 * every request, so it compares in place rather than cutting out the path.
 */
export function isControlRoomUrl(url: string): boolean {
  const start = pathStart(url);
  if (start < 0 || !url.startsWith(controlPrefix, start)) return false;
  const next = url[start + controlPrefix.length];
  return next === undefined || next === '/' || next === '?';
}
