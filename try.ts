import { generators, generateBatch } from './generators/index.js';
import { validate, formatIssue } from './validators/index.js';
import { resourceNames } from './schemas/index.js';
for (const name of resourceNames) {
  for (const profile of ['minimal','full','mixed','edge'] as const) {
    let bad = 0; let first = '';
    for (const inst of generateBatch(name, 1, 2000, { profile })) {
      const r = validate(name, inst);
      if (!r.valid) { bad++; if (!first) first = r.issues.map(formatIssue).join('; '); }
    }
    console.log(name, profile, bad, first);
  }
}
console.log(JSON.stringify(generators.Evaluation(3, {profile:'full'}), null, 1).slice(0, 3000));
console.log(JSON.stringify(generators.HumanEvaluation(3)));
