/**
 * Where the control room lives, at the root whatever the base path: the API's paths never start with it. On its own
 * so that `evalkit mock --help` can name it without loading the control room.
 */
export const controlPrefix = '/__evalkit';
/** The event stream's path: answered by an adapter that can stream (the Node server), not by the admin routes. */
export const eventsPath = `${controlPrefix}/events`;
