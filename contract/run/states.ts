import { evaluationStates, humanEvaluationStates } from '../../generators/vocabulary.js';
import type { Fields } from '../judge/observation.js';
import { createValid } from './create.js';
import { fetchGivenId } from './fetch.js';
import type { Session } from './session.js';

/** What a run asks for by state: the given id, and the valid create request unless the run is read-only. */
export interface StateRequests {
  id: string;
  idGiven: boolean;
  request?: Fields;
  bodyGiven: boolean;
}

/**
 * The `Prefer` (RFC 7240) asking a mock for a state, every optional field filled (evalkit mock's, Prism-style
 * scenario keys).
 */
function preferring(state: string): Record<string, string> {
  return { prefer: `state=${state}, profile=full` };
}

/**
 * Against a deployment that honours `Prefer` (a mock: it answers with `Preference-Applied`), the given id and the
 * valid create request again in every state, each filled: a just-created Evaluation shows no results, figures or
 * errors, and without these the run would never see the fields those states carry. A deployment that does not
 * honour it (a real one) gets the one fetch that asks, and nothing more.
 */
export async function askForStates(
  session: Session,
  { id, idGiven, request, bodyGiven }: StateRequests,
): Promise<void> {
  const [first, ...others] = humanEvaluationStates;
  const asked = await fetchGivenId(session, id, idGiven, preferring(first));
  if (asked.headers['preference-applied'] === undefined) return;
  for (const state of others) await fetchGivenId(session, id, idGiven, preferring(state));
  if (request) for (const state of evaluationStates) await createValid(session, request, bodyGiven, preferring(state));
}
