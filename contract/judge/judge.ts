import { maxValidatedItems } from '../../http/json-body.js';
import { catalogue, type CheckId } from './catalogue.js';
import type { CheckDefinition } from './define.js';
import type { Evidence } from './evidence.js';
import { anyIndex } from './finding-id.js';
import type { Observation } from './observation.js';
import { listed } from './checks/response.js';
import { undeclaredFields } from './schema-walk.js';
import type { Verdicts } from './verdicts.js';

/**
 * What an exchange tells besides its checks: the arrays only partly validated, and every undocumented field, which
 * the spec allows (responses may carry extra fields), so a note and never a check.
 */
function notesOf(seen: Observation): string[] {
  return seen.records().flatMap(({ where, issues: { cuts }, schemaFields }) => [
    ...(cuts.length > 0
      ? [`${where}: only the first ${maxValidatedItems} items of ${listed(cuts, 'arrays')} were validated`]
      : []),
    // Indices vary per record; the note is about the field.
    ...undeclaredFields(schemaFields()).map(
      (pointer) => `undocumented field ${anyIndex(pointer)} (allowed: responses may carry extra fields)`,
    ),
  ]);
}

/**
 * Judges one exchange with every check of the catalogue that applies to it, and notes what it tells. A failure found
 * now belongs to this exchange: its curl command and excerpts come from `evidence` (a property case has none: its
 * property reports it, shrunk). Returns the checks this exchange failed, in the catalogue's order.
 */
export function judgeExchange(verdicts: Verdicts, seen: Observation, evidence: Evidence): CheckDefinition<CheckId>[] {
  const { outgoing } = seen.sent;
  if (seen.sent.role.kind !== 'property')
    verdicts.judging(evidence.curl(outgoing), () => evidence.excerpts(outgoing, seen.exchange));
  const failed: CheckDefinition<CheckId>[] = [];
  for (const check of catalogue) {
    if (!check.code) continue;
    const judged = check.code(seen);
    verdicts.record(check.id, judged);
    if (Array.isArray(judged) && judged.length > 0) {
      failed.push(check);
      if (check.hint) verdicts.hint(check.id, check.hint(seen));
    }
  }
  for (const note of notesOf(seen)) verdicts.note(seen.sent.operation, note);
  return failed;
}
