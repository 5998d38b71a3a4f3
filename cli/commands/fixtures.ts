import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { generateBatch, batchSeed, generators, profiles, type Profile } from '../../fixtures/generators/index.js';
import { invalidCases, type InvalidCase } from '../../fixtures/generators/invalid.js';
import { isResourceName, resourceNames, schemaFiles, type ResourceName } from '../../schemas/index.js';
import { choiceOption, integerOption, stringOption, UsageError, type Command } from '../command.js';
import { writeDocument, writeItems, type Write } from '../json-stream.js';
import { writeOut } from '../output.js';

function resources(values: Record<string, unknown>): ResourceName[] {
  const name = stringOption(values as never, 'schema');
  if (name === undefined) return resourceNames;
  if (!isResourceName(name)) throw new UsageError(`--schema must be one of ${resourceNames.join(', ')}, got '${name}'`);
  return [name];
}

/** The index-th invalid create request: rule (index mod rules) applied to the index-th valid body, so a batch covers every rule. */
function* invalidBatch(seed: string, count: number, profile: Profile): IterableIterator<InvalidCase> {
  for (let index = 0; index < count; index++) {
    const body = generators.CreateEvaluationRequest(batchSeed(seed, index), { profile });
    const cases = invalidCases('CreateEvaluationRequest', body);
    yield cases[index % cases.length] as InvalidCase;
  }
}

function* tagged(name: ResourceName, items: Iterable<unknown>): IterableIterator<unknown> {
  for (const instance of items) yield { schema: name, instance };
}

/** Writes to a file through a stream, honouring backpressure. */
function fileWriter(file: string): { write: Write; close: () => Promise<void> } {
  const stream = createWriteStream(file);
  return {
    write: (chunk) => new Promise((resolve, reject) => stream.write(chunk, (error) => (error ? reject(error) : resolve()))),
    close: () => new Promise((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve()))),
  };
}

export const fixturesCommand: Command = {
  name: 'fixtures',
  summary: 'Generate valid, deterministic fixtures for every resource (or invalid create requests with --invalid).',
  options: [
    { name: 'schema', type: 'string', value: 'NAME', description: `One resource: ${resourceNames.join(', ')}.`, defaultText: 'all' },
    { name: 'count', type: 'string', value: 'N', description: 'Instances per resource.', defaultText: '10' },
    { name: 'seed', type: 'string', value: 'S', description: 'Seed (any string or number): the same seed gives byte-identical output.', defaultText: '1' },
    { name: 'profile', type: 'string', value: 'P', description: `Profile: ${profiles.join(', ')}.`, defaultText: 'mixed' },
    { name: 'format', type: 'string', value: 'json|ndjson', description: 'A JSON array per resource, or one JSON document per line.', defaultText: 'json' },
    { name: 'out', type: 'string', value: 'DIR', description: 'Write one file per resource into DIR (e.g. DIR/evaluation.ndjson) instead of stdout.' },
    {
      name: 'invalid',
      type: 'boolean',
      description: 'Write create-request bodies that each break exactly one schema rule, as {rule, pointer, keyword, body}.',
    },
  ],
  details: [
    'Profiles: minimal (required fields only), full (every optional field), mixed (each optional field at random),',
    'edge (empty arrays, unicode and very long strings, error Results, boundary integers).',
    'To stdout, several resources print as one JSON object keyed by resource (json) or as',
    '{"schema": NAME, "instance": ...} lines (ndjson).',
  ].join('\n'),
  async run(values) {
    const count = integerOption(values, 'count', 0, 1_000_000) ?? 10;
    const seed = stringOption(values, 'seed') ?? '1';
    const profile = choiceOption(values, 'profile', profiles) ?? 'mixed';
    const format = choiceOption(values, 'format', ['json', 'ndjson'] as const) ?? 'json';
    const out = stringOption(values, 'out');
    const invalid = values.invalid === true;
    if (invalid && stringOption(values, 'schema') !== undefined && stringOption(values, 'schema') !== 'CreateEvaluationRequest') {
      throw new UsageError('--invalid makes CreateEvaluationRequest bodies only; drop --schema or pass --schema CreateEvaluationRequest');
    }
    const selected = invalid ? (['CreateEvaluationRequest'] as ResourceName[]) : resources(values);
    const batch = (name: ResourceName): Iterable<unknown> => (invalid ? invalidBatch(seed, count, profile) : generateBatch(name, seed, count, { profile }));

    if (out !== undefined) {
      await mkdir(out, { recursive: true });
      for (const name of selected) {
        const file = join(out, schemaFiles[name].replace(/\.json$/, invalid ? `.invalid.${format}` : `.${format}`));
        const writer = fileWriter(file);
        await writeDocument(batch(name), format, writer.write);
        await writer.close();
        process.stderr.write(`wrote ${file}\n`);
      }
    } else if (selected.length === 1) {
      await writeDocument(batch(selected[0] as ResourceName), format, writeOut);
    } else if (format === 'ndjson') {
      for (const name of selected) await writeItems(tagged(name, batch(name)), 'ndjson', writeOut);
    } else {
      // The same bytes as JSON.stringify({Name: [...], ...}, null, 2), streamed.
      for (const [index, name] of selected.entries()) {
        await writeOut(`${index === 0 ? '{\n' : ',\n'}  ${JSON.stringify(name)}: `);
        await writeItems(batch(name), 'json', writeOut, 1);
      }
      await writeOut('\n}\n');
    }
    return 0;
  },
};
