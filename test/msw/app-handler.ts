import { http, HttpResponse } from 'msw';

/**
 * The app's own catch-all, listed after evalkit's handlers: a request they let pass by reaches it, as in an app, and is
 * shown by its answer, where the 'error' strategy for unhandled requests proved the same with an error printed.
 */
export const appsOwnHandler = http.all('*', () =>
  HttpResponse.text('the app', { headers: { 'x-answered-by': 'app' } }),
);

/** Who answered: the app's own handler, or evalkit's. */
export const answeredBy = (response: Response): string => response.headers.get('x-answered-by') ?? 'evalkit';
