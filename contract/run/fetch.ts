import type { Exchange } from '../../http/exchange.js';
import { schemas } from '../../schemas/index.js';
import { probeOrder, unknownIdOf } from './id-shapes.js';
import { fetchRequest } from './requests.js';
import type { Session } from './session.js';

/** The id fetched when none is given: the schema's example, which mocks (Prism's static one included) serve. */
export const defaultHumanEvaluationId = (schemas.HumanEvaluation.examples as Array<{ id: string }>)[0]?.id as string;

/**
 * The fetch of an id that should exist. `idGiven`: the user named it; a generated id may well not exist on a real
 * deployment, so a 4xx for it is no finding. `headers`: the request's own (a `Prefer`).
 */
export function fetchGivenId(
  session: Session,
  id: string,
  idGiven: boolean,
  headers?: Record<string, string>,
): Promise<Exchange> {
  const unvouched = idGiven
    ? undefined
    : { what: 'the generated id', remedy: 'pass --human-evaluation-id with an id that exists there' };
  return session.request({
    operation: 'fetch',
    outgoing: { ...fetchRequest(id), ...(headers ? { headers } : {}) },
    role: { kind: 'expected', id, ...(unvouched ? { unvouched } : {}) },
  });
}

/**
 * Fetches of ids that cannot exist, one per id shape, the deployment's own shape (learnt from `knownIds`: the given
 * id, created Evaluations' ids) first: a 2xx means the deployment invents records; a 5xx (its own check) for one shape
 * only is named with that shape. A note says which shape got what. Sent one at a time, not ahead: on a deployment
 * that hangs or rate-limits fetches, the run stops after the second timeout whatever the concurrency.
 */
export async function fetchUnknownIds(session: Session, knownIds: readonly string[], seed: string): Promise<void> {
  const answers: string[] = [];
  for (const { shape, own } of probeOrder(knownIds)) {
    const which = shape === 'other' ? 'id shaped like neither an ObjectId nor a UUID' : shape;
    const what = `an unknown ${which}${own ? ', as the ids the deployment gave are' : ''}`;
    const exchange = await session.request({
      operation: 'fetch',
      outgoing: fetchRequest(unknownIdOf(shape, seed), what),
      role: { kind: 'unknown-id', shape },
    });
    answers.push(
      `${shape}${own ? ' (its own shape)' : ''} ${exchange.status ?? exchange.failure?.kind ?? 'no answer'}`,
    );
  }
  session.verdicts.note('fetch', `unknown ids answered: ${answers.join(', ')}`);
}

/**
 * The given id's fetch with a trailing slash, for --compare-mock alone (sent, compared, never judged): FastAPI
 * redirects it to the path without one, where the mock and Express forgive it.
 */
export function fetchWithTrailingSlash(session: Session, id: string): Promise<void> {
  const request = fetchRequest(id, 'the same path with a trailing slash');
  return session.compareOnly({
    operation: 'fetch',
    outgoing: { ...request, path: `${request.path}/` },
    role: { kind: 'repeat' },
  });
}
