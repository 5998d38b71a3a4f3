/**
 * The options the page's handlers and the Node answers it is compared with share; the clock pinned, since created
 * Evaluations carry the request's moment.
 */
export const pageOptions = { baseUrl: '/api', seed: 'browser', profile: 'mixed', now: '2026-01-02T03:04:05Z' } as const;
