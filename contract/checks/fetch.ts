import { schemas } from '../../schemas/index.js';
import type { Exchange } from '../../http/exchange.js';
import { probeOrder, unknownIdOf } from '../id-shapes.js';
import { isSuccess, type Outgoing, type Session } from '../session.js';
import type { Verdicts } from '../verdicts.js';
import { acceptedSuccess, checkRecord, parseSuccessBody, type Unvouched } from './response.js';

/** The id fetched when none is given: the schema's example, which mocks (Prism's static one included) serve. */
export const defaultHumanEvaluationId = (schemas.HumanEvaluation.examples as Array<{ id: string }>)[0]?.id as string;

export function fetchRequest(id: string, what?: string): Outgoing {
  return {
    method: 'GET',
    path: `/human-evaluations/${encodeURIComponent(id)}`,
    ...(what !== undefined ? { what } : {}),
  };
}

/**
 * GET of an id that should exist. `idGiven`: the user named it; a generated id may well not exist on a real
 * deployment, so a 4xx for it is no finding.
 */
export async function checkFetch(session: Session, id: string, idGiven: boolean): Promise<void> {
  const outgoing = fetchRequest(id);
  const exchange = await session.request('fetch', outgoing);
  const generated = idGiven
    ? undefined
    : { what: 'the generated id', remedy: 'pass --human-evaluation-id with an id that exists there' };
  checkFetchAnswer(session.verdicts, id, session.label(outgoing), exchange, generated);
}

/** The checks of a fetch answer; `unvouched`: a 4xx is no finding, since nobody said the id exists. */
export function checkFetchAnswer(
  verdicts: Verdicts,
  id: string,
  label: string,
  exchange: Exchange,
  unvouched: Unvouched | undefined,
): void {
  if (!acceptedSuccess(verdicts, 'fetch', label, exchange, unvouched)) return;
  const parsed = parseSuccessBody(verdicts, 'fetch', label, exchange);
  if (!parsed) return;
  checkRecord(verdicts, 'fetch', 'HumanEvaluation', parsed.data, label);
  const answered = (parsed.data as { id?: unknown } | null)?.id;
  if (typeof answered === 'string') {
    verdicts.expect(
      'fetch.body.id',
      answered === id ? undefined : `${label} answered the record of another id, ${JSON.stringify(answered)}`,
    );
  }
}

/**
 * GETs of ids that cannot exist, one per id shape, the deployment's own shape (learnt from `knownIds`: the given id,
 * created Evaluations' ids) first: a 2xx means the deployment invents records; a 5xx (its own check) for one shape
 * only is named with that shape. A note says which shape got what. Sent one at a time, not ahead: on a deployment that
 * hangs or rate-limits GETs, the run stops after the second timeout whatever the concurrency.
 */
export async function checkUnknownIds(session: Session, knownIds: readonly string[], seed: string): Promise<void> {
  const answers: string[] = [];
  for (const { shape, own } of probeOrder(knownIds)) {
    const outgoing = fetchRequest(
      unknownIdOf(shape, seed),
      `an unknown ${shape === 'other' ? 'id of another shape' : shape}${own ? ", the deployment's own shape" : ''}`,
    );
    const exchange = await session.request('fetch', outgoing);
    answers.push(
      `${shape}${own ? ' (its own shape)' : ''} ${exchange.status ?? exchange.failure?.kind ?? 'no answer'}`,
    );
    if (exchange.failure || exchange.status === undefined) continue;
    session.verdicts.expect(
      'fetch.unknown-id.rejected',
      isSuccess(exchange) ? `${session.label(outgoing)} answered ${exchange.status}` : undefined,
    );
  }
  session.verdicts.note('fetch', `unknown ids answered: ${answers.join(', ')}`);
}
