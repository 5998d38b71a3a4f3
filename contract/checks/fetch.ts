import { schemas } from '../../schemas/index.js';
import type { Exchange } from '../http-client.js';
import { isSuccess, type Outgoing, type Session } from '../session.js';
import type { Verdicts } from '../verdicts.js';
import { acceptedSuccess, checkRecord, parseSuccessBody, type Unvouched } from './response.js';

/** The id fetched when none is given: the schema's example, which mocks (Prism's static one included) serve. */
export const defaultHumanEvaluationId = (schemas.HumanEvaluation.examples as Array<{ id: string }>)[0]?.id as string;

export function fetchRequest(id: string): Outgoing {
  return { method: 'GET', path: `/human-evaluations/${encodeURIComponent(id)}` };
}

/**
 * GET of an id that should exist. `idGiven`: the user named it; a generated id may well not exist on a real
 * deployment, so a 4xx for it is no finding.
 */
export async function checkFetch(session: Session, id: string, idGiven: boolean): Promise<void> {
  const outgoing = fetchRequest(id);
  const exchange = await session.request('fetch', outgoing);
  const generated = idGiven ? undefined : { what: 'the generated id', remedy: 'pass --human-evaluation-id with an id that exists there' };
  checkFetchAnswer(session.verdicts, id, session.label(outgoing), exchange, generated);
}

/** The checks of a fetch answer; `unvouched`: a 4xx is no finding, since nobody said the id exists. */
export function checkFetchAnswer(verdicts: Verdicts, id: string, label: string, exchange: Exchange, unvouched: Unvouched | undefined): void {
  if (!acceptedSuccess(verdicts, 'fetch', label, exchange, unvouched)) return;
  const parsed = parseSuccessBody(verdicts, 'fetch', label, exchange);
  if (!parsed) return;
  checkRecord(verdicts, 'fetch', 'HumanEvaluation', parsed.data, label);
  const answered = (parsed.data as { id?: unknown } | null)?.id;
  if (typeof answered === 'string') {
    verdicts.expect('fetch.body.id', answered === id ? undefined : `${label} answered the record of another id, ${JSON.stringify(answered)}`);
  }
}

/** GET of an id that cannot exist: a 2xx means the deployment invents records. */
export async function checkUnknownId(session: Session, unknownId: string): Promise<void> {
  const outgoing = fetchRequest(unknownId);
  const exchange = await session.request('fetch', outgoing);
  if (exchange.failure || exchange.status === undefined) return;
  session.verdicts.expect('fetch.unknown-id.rejected', isSuccess(exchange) ? `${session.label(outgoing)} (an unknown id) answered ${exchange.status}` : undefined);
}
