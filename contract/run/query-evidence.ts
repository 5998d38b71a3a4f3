import { Evidence } from '../judge/evidence.js';

/**
 * Evidence for a run whose requests may carry a query after their path (`/human-evaluations/x?page=2`): a replayed
 * request is sent, and reproduced by its curl, with the query the app sent. No other request's path holds a `?`
 * (api/match.ts pathFor encodes it in an id), so the suite's own requests are sent as before.
 */
export class QueryEvidence extends Evidence {
  override url(target: string): URL {
    const start = target.indexOf('?');
    if (start < 0) return super.url(target);
    const url = super.url(target.slice(0, start));
    url.search = target.slice(start);
    return url;
  }
}
