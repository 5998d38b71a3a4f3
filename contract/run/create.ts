import type { Exchange } from '../../http/exchange.js';
import { isRefusal } from '../judge/checks/create.js';
import { isJsonObject as isObject } from '../../schemas/json-object.js';
import { isSuccess, readSuccessBody, type Fields } from '../judge/observation.js';
import type { Role, Unvouched } from '../judge/sent.js';
import { keyNames, otherKeyNames } from './canaries.js';
import { createRequest } from './requests.js';
import type { Session } from './session.js';

/** Whether a valid create request was accepted, and the ids of the Evaluations it created. */
export interface CreateOutcome {
  accepted: boolean;
  ids: string[];
}

/** The ids of the records of a create answer's array body. */
function createdIds(exchange: Exchange): string[] {
  const read = readSuccessBody(exchange, 'create');
  if ('problem' in read) return [];
  const { data } = read;
  return Array.isArray(data)
    ? data
        .filter(isObject)
        .map((record) => record.id)
        .filter((id): id is string => typeof id === 'string')
    : [];
}

/**
 * The create of a valid request. `bodyGiven`: the user supplied it; a generated body names ids a real deployment
 * lacks, so a 4xx for it is no finding. `headers`: the request's own (a `Prefer`).
 */
export async function createValid(
  session: Session,
  request: Fields,
  bodyGiven: boolean,
  headers?: Record<string, string>,
): Promise<CreateOutcome> {
  const unvouched: Unvouched | undefined = bodyGiven
    ? undefined
    : { what: 'the generated body', remedy: 'pass --create-body with ids that exist there' };
  const exchange = await session.request({
    operation: 'create',
    outgoing: { ...createRequest(JSON.stringify(request)), ...(headers ? { headers } : {}) },
    role: { kind: 'expected', request, ...(unvouched ? { unvouched } : {}) },
  });
  return isSuccess(exchange) ? { accepted: true, ids: createdIds(exchange) } : { accepted: false, ids: [] };
}

/**
 * The accepted create request again with other lm_providers_keys names: once with all of them (one request on a
 * deployment that keeps the spec); if that is refused, once with its own names as a control, then once per name
 * to say which ones.
 */
export async function tryOtherKeyNames(session: Session, request: Fields): Promise<void> {
  const used = keyNames(request);
  const names = otherKeyNames(used);
  const post = (body: Fields, role: Role) =>
    session.request({ operation: 'create', outgoing: createRequest(JSON.stringify(body)), role });
  const together = await post(session.canaries.withNames(request, names), { kind: 'key-names' });
  if (!isRefusal(together)) return;
  // The same body with its own names, again: a deployment that refuses a repeated create (a duplicate, a rate
  // limit) refuses it too, and that refusal says nothing about key names.
  const control = await post(request, { kind: 'repeat' });
  if (isRefusal(control)) {
    session.verdicts.skip(
      'create.provider-keys.accepted',
      `the same create request sent again was refused too (${control.status}): a refusal not about key names`,
    );
    return;
  }
  let refused = false;
  for (const name of names) {
    const alone = await post(session.canaries.withNames(request, [name]), { kind: 'key-names', alone: { name, used } });
    refused ||= isRefusal(alone);
  }
  // The names together were refused for the names refused alone: the same violation, told to the comparison.
  if (refused) session.alsoFailed(together, 'create.provider-keys.accepted');
}
