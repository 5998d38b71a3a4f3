/** The options the page's handlers and the Node answers it is compared with share. */
export const pageOptions = { baseUrl: '/api', seed: 'browser', profile: 'mixed' } as const;
