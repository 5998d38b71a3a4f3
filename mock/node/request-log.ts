import type { RequestHandler } from 'express';

/** Long paths (very long ids) are cut so one request cannot flood the log. */
const maxLoggedPath = 200;

/**
 * One line per request once its connection is done with it: method, path, status, milliseconds. Never a query
 * string, a header or a body, so nothing a client sends beyond the path can reach the log.
 */
export function requestLog(write: (line: string) => void): RequestHandler {
  return (req, res, next) => {
    const start = performance.now();
    res.once('close', () => {
      const path = (req.originalUrl.split('?')[0] ?? '').slice(0, maxLoggedPath);
      const status = res.writableFinished
        ? String(res.statusCode)
        : `${res.headersSent ? res.statusCode : '-'} (connection closed early)`;
      write(`${req.method} ${path} ${status} ${(performance.now() - start).toFixed(1)}ms`);
    });
    next();
  };
}
