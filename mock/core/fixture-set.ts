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
  override name = 'FixtureError';

  constructor(
    message: string,
    /** One line per problem (a file, the field and the reason), for a reload that reports them one by one. */
    readonly problems: readonly string[] = [message],
  ) {
    super(message);
  }
}

/** One fixture checked: the fixture when it can be served, the problems otherwise. */
export interface CheckedFixture {
  fixture?: Fixture;
  problems: string[];
}

/** Checks one fixture: `where` names it in problems (a file, an index), `id` is the id it must carry when known. */
export function checkFixture(where: string, data: unknown, id?: string): CheckedFixture {
  const result = validate('HumanEvaluation', data);
  if (!result.valid) return { problems: result.issues.map((issue) => `${where}: ${formatIssue(issue)}`) };
  const record = data as HumanEvaluation;
  if (id !== undefined && record.id !== id)
    return { problems: [`${where}: /id is '${record.id}' but the file name says '${id}'; they must match`] };
  return { fixture: { record, body: serialize(record) }, problems: [] };
}

/**
 * Checked fixtures as the map the core serves from, keyed by id; throws one FixtureError listing every problem, so a
 * fixtures set is fixed in one go. Requests are answered from the map alone: an id from a URL never becomes a path or
 * a key of anything else.
 */
export function fixtureMap(checked: Iterable<CheckedFixture>): Map<string, Fixture> {
  const fixtures = new Map<string, Fixture>();
  const problems: string[] = [];
  for (const { fixture, problems: found } of checked) {
    if (fixture) fixtures.set(fixture.record.id, fixture);
    problems.push(...found);
  }
  if (problems.length > 0)
    throw new FixtureError(
      `fixtures: ${problems.length} problem(s), the mock did not start:\n  ${problems.join('\n  ')}`,
      problems,
    );
  return fixtures;
}

/** Fixtures given as objects (the browser has no folder), keyed by their id. */
export function fixtureSet(records: Iterable<unknown>): Map<string, Fixture> {
  return fixtureMap(Array.from(records, (data, index) => checkFixture(`fixtures[${index}]`, data)));
}
