import type { HumanEvaluation } from '../../schemas/types/resources.js';
import { formatIssue, validate } from '../../schemas/validators/index.js';
import { serialize } from './serialize.js';
import { MockSetupError } from './setup-error.js';

/** A fixture's record and its body, serialized once at start-up. */
export interface Fixture {
  record: HumanEvaluation;
  body: Uint8Array;
}

/** Fixtures that cannot be served as they are; the message names every one at fault, the field and the reason. */
export class FixtureError extends MockSetupError {
  constructor(
    message: string,
    /** One line per problem (a file, the field and the reason), for a reload that reports them one by one. */
    readonly problems: readonly string[] = [message],
  ) {
    super(message);
  }
}

/** Checks one fixture: `where` names it in problems (a file, an index), `id` is the id it must carry when known. */
export function checkFixture(where: string, data: unknown, id?: string): { fixture?: Fixture; problems: string[] } {
  const result = validate('HumanEvaluation', data);
  if (!result.valid) return { problems: result.issues.map((issue) => `${where}: ${formatIssue(issue)}`) };
  const record = data as HumanEvaluation;
  if (id !== undefined && record.id !== id)
    return { problems: [`${where}: /id is '${record.id}' but the file name says '${id}'; they must match`] };
  return { fixture: { record, body: serialize(record) }, problems: [] };
}

/** Throws one FixtureError listing every problem, so a fixtures set is fixed in one go. */
export function failOnProblems(problems: string[]): void {
  if (problems.length > 0)
    throw new FixtureError(
      `fixtures: ${problems.length} problem(s), the mock did not start:\n  ${problems.join('\n  ')}`,
      problems,
    );
}

/**
 * Fixtures given as objects (the browser has no folder), keyed by their id. Requests are answered from the map
 * alone: an id from a URL never becomes a path or a key of anything else.
 */
export function fixtureSet(records: Iterable<unknown>): Map<string, Fixture> {
  const fixtures = new Map<string, Fixture>();
  const problems: string[] = [];
  let index = 0;
  for (const data of records) {
    const checked = checkFixture(`fixtures[${index++}]`, data);
    if (checked.fixture) fixtures.set(checked.fixture.record.id, checked.fixture);
    problems.push(...checked.problems);
  }
  failOnProblems(problems);
  return fixtures;
}
