import { createGeneratorSync } from 'json-schema-faker';
import { generators, type GenerateOptions } from '../generators/index.js';
import { bundledSchema, resourceNames, type JsonSchema, type ResourceName } from '../schemas/index.js';
import { validate } from '../schemas/validators/index.js';

/**
 * Instances per second for each resource: evalkit's generators (valid and coherent by construction) against raw
 * json-schema-faker on the same schema, in one run. Evaluations carry 3 aggregated results on both sides.
 * Usage: npm run bench:generators [-- SECONDS_PER_MEASURE]
 */
const seconds = Number(process.argv[2] ?? 1.5);

const evaluatorConfigIds = ['6637c0a25368ef07b03a64d1', '6637c0a25368ef07b03a64d2', '6637c0a25368ef07b03a64d3'];
const ours: Partial<Record<ResourceName, GenerateOptions<never>>> = {
  Evaluation: { evaluatorConfigIds, state: 'EVALUATION_FINISHED' } as never,
};

/** The bundled schema, with Evaluation's aggregated_results pinned to 3 items so both sides make the same work. */
function jsfSchema(name: ResourceName): JsonSchema {
  const schema = bundledSchema(name);
  if (name === 'Evaluation') {
    const properties = schema.properties as Record<string, JsonSchema>;
    properties.aggregated_results = { ...properties.aggregated_results, minItems: 3, maxItems: 3 };
  }
  return schema;
}

function rate(make: (index: number) => unknown): number {
  let count = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 50; i++) JSON.stringify(make(count++));
  }
  return count / ((performance.now() - start) / 1000);
}

function validShare(make: (index: number) => unknown, sample = 500): number {
  let valid = 0;
  for (let i = 0; i < sample; i++) if (validate(ourName, make(i)).valid) valid++;
  return valid / sample;
}
let ourName: ResourceName = 'HumanEvaluation';

const rows: string[][] = [['resource', 'evalkit /s', 'json-schema-faker /s', 'ratio', 'evalkit valid', 'jsf valid']];
for (const name of resourceNames) {
  ourName = name;
  const options = ours[name] ?? {};
  const evalkit = (index: number) => (generators[name] as (seed: number, o: object) => unknown)(index, options);
  const schema = jsfSchema(name);
  const jsf = createGeneratorSync({ seed: 1 });
  const raw = () => jsf.generate(schema as never);
  const ourRate = rate(evalkit);
  const jsfRate = rate(raw);
  rows.push([
    name,
    ourRate.toFixed(0),
    jsfRate.toFixed(0),
    `${(ourRate / jsfRate).toFixed(1)}x`,
    `${(validShare(evalkit) * 100).toFixed(0)}%`,
    `${(validShare(raw) * 100).toFixed(0)}%`,
  ]);
}

const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
for (const row of rows) console.log(row.map((cell, column) => cell.padStart(widths[column]!)).join('  '));
console.log(
  `\n${seconds}s per measure, Node ${process.version}; "valid" = share of 500 instances passing the evalkit validator.`,
);
