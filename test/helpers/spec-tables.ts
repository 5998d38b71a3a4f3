import { existsSync, readFileSync } from 'node:fs';
import type { ResourceName } from '../../schemas/index.js';

/** The spec sits beside the project (../shared/spec); CI's checkout has it there, a bare clone may not. */
const specPath = new URL('../../../shared/spec/evaluation-service.md', import.meta.url);
export const specAvailable = existsSync(specPath);

export interface SpecField {
  field: string;
  type: string;
  required: boolean;
}

/**
 * Which resource each field table of the spec describes: the line that introduces the table, and whether all its
 * fields are required.
 */
const tableIntroductions: Array<{ introduction: RegExp; resource: ResourceName; allRequired: boolean }> = [
  { introduction: /^### 2\.1 HumanEvaluation/, resource: 'HumanEvaluation', allRequired: true },
  { introduction: /^### 2\.2 Evaluation/, resource: 'Evaluation', allRequired: false },
  { introduction: /^### 2\.3 Result object/, resource: 'Result', allRequired: false },
  { introduction: /^Error object:/, resource: 'Error', allRequired: false },
  { introduction: /^### 2\.4 AggregatedResult/, resource: 'AggregatedResult', allRequired: false },
  { introduction: /^EvaluatorConfig:/, resource: 'EvaluatorConfig', allRequired: false },
  { introduction: /^- Request body \(required\), object:/, resource: 'CreateEvaluationRequest', allRequired: false },
  { introduction: /^rate_limit fields, all required integers:/, resource: 'RateLimit', allRequired: true },
];

/** The field tables of the spec, read from its markdown: the test compares the schemas with the spec's own words. */
export function specTables(): Map<ResourceName, SpecField[]> {
  const tables = new Map<ResourceName, SpecField[]>();
  let current: (typeof tableIntroductions)[number] | undefined;
  for (const line of readFileSync(specPath, 'utf8').split('\n')) {
    const introduction = tableIntroductions.find((candidate) => candidate.introduction.test(line.trim()));
    if (introduction) {
      current = introduction;
      continue;
    }
    if (!current || !line.startsWith('|') || /^\|\s*(Field|---)/.test(line)) continue;
    const [field, type, required] = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    const fields = tables.get(current.resource) ?? [];
    fields.push({ field: field as string, type: type as string, required: current.allRequired || required === 'yes' });
    tables.set(current.resource, fields);
  }
  return tables;
}
