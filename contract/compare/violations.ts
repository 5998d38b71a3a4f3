import type { CheckId } from '../judge/catalogue.js';

/** A difference as one request showed it: what differed, and the deployment's side of it. */
interface Shown {
  aspect: string;
  deployment: string;
}

/** A 5xx, a refusal: the whole answer is the failure, so every facet of it that differs is the deployment's. */
const failedAnswer = (shown: Shown) => ['status', 'content type', 'error body', 'error words'].includes(shown.aspect);

/** The forms of a date-time RFC 3339 has (facets.ts, dateForm): any other form the deployment shows breaks it. */
const rfc3339Forms = new Set(['Z', 'offset']);

/**
 * What a schema failure accounts for among the facets compared: a date the deployment writes outside RFC 3339 (the
 * spec types no id style and no state). Never the rest of the answer: the real releases write naive or spaced dates
 * in every success answer, and that must not hide how their ids and states differ from the mock's, which the era
 * setting is there to imitate.
 */
function outsideSchema({ aspect, deployment }: Shown): boolean {
  return aspect === 'date form' && deployment.split(', ').some((form) => !rfc3339Forms.has(form));
}

/** An echoed key sits in the error body the deployment sent (pydantic 2's `input`): that body's facets. */
const echoed = ({ aspect }: Shown) => aspect === 'error body' || aspect === 'error words';

/**
 * Each error-level check the deployment's answer can fail, and which differences on that request its failure
 * accounts for. Keyed by the id without its operation where every operation has the check. A check missing here
 * accounts for none: a test fails until each error-level check of the catalogue is named.
 */
const accountsFor: Readonly<Record<string, (shown: Shown) => boolean>> = {
  'status.5xx': failedAnswer,
  // A success body that is no JSON: the media type it came as, if that differs.
  'body.json': ({ aspect }) => aspect === 'content type',
  'body.schema': outsideSchema,
  // Not compared: an answer that never arrived whole has no facets (comparison.ts keeps only answers).
  transport: () => false,
  'create.secrets.echo': echoed,
  'create.provider-keys.accepted': failedAnswer,
  'create.properties.valid': (shown) => failedAnswer(shown) || outsideSchema(shown),
  'create.properties.invalid.5xx': failedAnswer,
};

/** The key of a check in `accountsFor`: its whole id, or the id without the operation. */
export function violationKey(check: string): string | undefined {
  if (check in accountsFor) return check;
  const general = check.replace(/^[a-z]+\./, '');
  return general in accountsFor ? general : undefined;
}

/**
 * The first of the checks the deployment's answer failed (in the catalogue's order, as the caller gives them) that
 * accounts for this difference: the deployment's own spec violation, not a difference the mock should imitate.
 */
export function violatedCheck(shown: Shown, failedChecks: readonly CheckId[]): CheckId | undefined {
  return failedChecks.find((check) => {
    const key = violationKey(check);
    return key !== undefined && accountsFor[key]?.(shown) === true;
  });
}
