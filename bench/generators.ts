import { faker } from '@faker-js/faker';
import { createGeneratorSync } from 'json-schema-faker';
import { build } from '../generators/factories.js';
import { generators, type GenerateOptions } from '../generators/index.js';
import { bundledSchema, resourceNames, type JsonSchema, type ResourceName } from '../schemas/index.js';
import { validate } from '../schemas/validators/index.js';
import { benchMode, sized } from './quick.js';

/**
 * Instances per second for each resource: evalkit's generators (valid and coherent by construction) against raw
 * json-schema-faker on the same schema, in one run. Evaluations carry 3 aggregated results on both sides.
 * Then build('HumanEvaluation') (the factory: generated, checked, validated) against a bare faker factory of the
 * same fields, in CPU time per record.
 * Usage: npm run bench:generators [-- SECONDS_PER_MEASURE]
 */
const seconds = Number(benchMode().args[0] ?? sized(1.5, 0.05));
/** Instances each side makes for the "valid" columns. */
const validSample = sized(500, 20);

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

function validShare(make: (index: number) => unknown, sample = validSample): number {
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
  `\n${seconds}s per measure, Node ${process.version}; "valid" = share of ${validSample} instances passing the ` +
    'evalkit validator.',
);

/** A bare faker factory of HumanEvaluation's fields, as fishery or Kubb's faker plugin would write it. */
function fakerHumanEvaluation(): unknown {
  const variants = faker.number.int({ min: 1, max: 2 });
  const ids = () => Array.from({ length: variants }, () => faker.string.uuid());
  const created = faker.date.past();
  return {
    id: faker.string.uuid(),
    app_id: faker.string.uuid(),
    user_id: faker.string.uuid(),
    user_username: faker.internet.username(),
    evaluation_type: faker.helpers.arrayElement(['human_a_b_testing', 'single_model_test']),
    variant_ids: ids(),
    variant_names: Array.from({ length: variants }, () => faker.word.words(2)),
    variants_revision_ids: ids(),
    revisions: Array.from({ length: variants }, () => String(faker.number.int({ min: 1, max: 30 }))),
    testset_id: faker.string.uuid(),
    testset_name: faker.word.words(3),
    status: faker.helpers.arrayElement(['EVALUATION_INITIALIZED', 'EVALUATION_STARTED', 'EVALUATION_FINISHED']),
    created_at: created.toISOString(),
    updated_at: faker.date.between({ from: created, to: new Date() }).toISOString(),
  };
}

/** CPU microseconds per record over `seconds` of making records; every record is kept, to be validated after. */
function cpuPerRecord(make: (index: number) => unknown): { micros: number; records: unknown[] } {
  const records: unknown[] = [];
  const start = process.cpuUsage();
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) for (let i = 0; i < 50; i++) records.push(make(records.length));
  const used = process.cpuUsage(start);
  return { micros: (used.user + used.system) / records.length, records };
}

ourName = 'HumanEvaluation';
faker.seed(1);
// Warm both up first, so neither pays the JIT's start in its measure.
cpuPerRecord(fakerHumanEvaluation);
cpuPerRecord((index) => build('HumanEvaluation', { seed: index }));
const bare = cpuPerRecord(fakerHumanEvaluation);
const built = cpuPerRecord((index) => build('HumanEvaluation', { seed: index }));
const validOf = ({ records }: { records: unknown[] }) =>
  `${records.filter((record) => validate('HumanEvaluation', record).valid).length}/${records.length}`;
console.log(
  `\nbuild('HumanEvaluation'): ${built.micros.toFixed(1)} µs CPU per record, ` +
    `bare faker factory of the same fields: ${bare.micros.toFixed(1)} µs; ` +
    `ratio ${(built.micros / bare.micros).toFixed(2)}x; ` +
    `valid: build ${validOf(built)}, faker ${validOf(bare)}`,
);
