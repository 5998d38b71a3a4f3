import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { projectRoot } from '../helpers/cli.js';
import { removeTempDirs } from '../helpers/temp-dirs.js';
import {
  diffTexts,
  engineErrors,
  writeDocuments,
  ourDocument,
  propertiesOf,
  schemasOf,
  type Json,
} from './documents.js';

afterAll(removeTempDirs);

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Our document with these component schemas added and HumanEvaluation's `status` made this schema. */
function withStatus(status: unknown, added: Record<string, unknown> = {}): Json {
  const document = ourDocument();
  Object.assign(schemasOf(document), added);
  propertiesOf(document, 'HumanEvaluation').status = status;
  return document;
}

const json = (document: Json) => ({ name: 'doc.json', text: JSON.stringify(document) });

/** One line on stderr, exit 2, naming the file and these words; never the engine's own message. */
function expectRefusal(run: { code: number; stderr: string; stdout: string }, file: string, ...words: string[]) {
  expect(run.code, run.stdout).toBe(2);
  expect(run.stderr).toMatch(/^evalkit diff: [^\n]*\n$/);
  expect(run.stderr.startsWith(`evalkit diff: ${file}: `), run.stderr).toBe(true);
  for (const word of words) expect(run.stderr).toContain(word);
  expect(run.stderr).not.toMatch(engineErrors);
}

/**
 * Schemas `Fan0` … `Fan{levels-1}`, each with two properties that both `$ref` the next: 2^levels paths through a
 * document of a few KB. The last is a string, or whatever `last` says.
 */
function fanOut(levels: number, last: Json): Json {
  const added: Record<string, unknown> = {};
  for (let level = 0; level < levels - 1; level++)
    added[`Fan${level}`] = {
      type: 'object',
      properties: { left: ref(`Fan${level + 1}`), right: ref(`Fan${level + 1}`) },
    };
  added[`Fan${levels - 1}`] = last;
  const document = ourDocument();
  Object.assign(schemasOf(document), added);
  propertiesOf(document, 'HumanEvaluation').tree = ref('Fan0');
  return document;
}

interface Bounded {
  ended: boolean;
  outOfMemory: boolean;
  code?: number;
  stdout?: string;
  stderr?: string;
}

/**
 * `evalkit diff` (the built CLI's `main`) in a worker thread whose heap is capped: one that needs more than the cap
 * dies out of memory, one that runs past the hang limit is stopped. Both fail the test; neither stops the suite.
 */
function diffInBoundedWorker(oldFile: string, newFile: string, heapMb: number, hangMs: number): Promise<Bounded> {
  const main = pathToFileURL(join(projectRoot, 'dist/cli/main.js')).href;
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { Writable } = require('node:stream');
    const captured = () => {
      const s = new Writable({ write(c, _e, done) { s.text += c; done(); } });
      s.text = '';
      return s;
    };
    import(workerData.main).then(async ({ main }) => {
      const stdout = captured(), stderr = captured();
      const code = await main(['diff', workerData.oldFile, workerData.newFile],
        { stdout, stderr, env: { NO_COLOR: '1' }, untilShutdown: () => new Promise(() => {}) });
      parentPort.postMessage({ code, stdout: stdout.text, stderr: stderr.text });
    });`;
  return new Promise((resolve) => {
    const worker = new Worker(code, {
      eval: true,
      workerData: { main, oldFile, newFile },
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve({ ended: false, outOfMemory: false });
    }, hangMs);
    worker.on('message', (result: { code: number; stdout: string; stderr: string }) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve({ ended: true, outOfMemory: false, ...result });
    });
    worker.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ ended: false, outOfMemory: error.code === 'ERR_WORKER_OUT_OF_MEMORY' });
    });
  });
}

describe('evalkit diff costs in proportion to the document, not to the paths through it', () => {
  it('a 30-level $ref fan-out (2^30 paths, 19 KB): answered, heap under 100 MiB, each change named once', async () => {
    const old = fanOut(30, { type: 'string' });
    const next = fanOut(30, { type: 'integer' });
    const { oldFile, newFile } = await writeDocuments(json(old), json(next));
    expect(JSON.stringify(old).length).toBeLessThan(20_000);
    const run = await diffInBoundedWorker(oldFile, newFile, 100, 30_000);
    expect(run).toMatchObject({ ended: true, outOfMemory: false, code: 1 });
    const deepest = `body.tree${'.left'.repeat(29)}: type string → integer`;
    const lines = (run.stdout ?? '').split('\n');
    expect(lines.filter((line) => line.includes(deepest))).toHaveLength(1);
    // The other path to each changed schema: one line saying it is the same schema, so output is linear too.
    expect(lines.filter((line) => line.includes('BREAKING'))).toHaveLength(30);
  }, 60_000);
});

describe('evalkit diff reads only what the document says, never what every JavaScript object inherits', () => {
  const pointer = '#/components/schemas/HumanEvaluation/properties/status';
  for (const target of [
    '#/components/schemas/constructor',
    '#/components/schemas/__proto__',
    '#/components/schemas/hasOwnProperty',
    '#/components/schemas/toString',
    '#/__proto__',
    '#/components/schemas/HumanEvaluation/required/length',
  ])
    it(`$ref ${target}: leads nowhere (exit 2), not an empty schema`, async () => {
      const run = await diffTexts(json(ourDocument()), json(withStatus({ $ref: target })));
      expectRefusal(run, run.newFile, `the $ref ${target} at ${pointer} leads nowhere`);
    });

  /** HumanEvaluation with a required string field named `__proto__`, in an allOf member or as a plain property. */
  function withProtoField(inAllOf: boolean): Json {
    const document = ourDocument();
    const schemas = schemasOf(document);
    const human = schemas.HumanEvaluation as Json;
    // JSON.parse makes `__proto__` an own key, as it does reading the file; an object literal would set a prototype.
    const field = JSON.parse('{"type": "object", "properties": {"__proto__": {"type": "string"}}}') as Json;
    field.required = ['__proto__'];
    if (inAllOf) schemas.HumanEvaluation = { allOf: [field, human] };
    else {
      Object.defineProperty(human.properties, '__proto__', { value: { type: 'string' }, enumerable: true });
      (human.required as string[]).push('__proto__');
    }
    return document;
  }

  for (const inAllOf of [true, false])
    it(`a required response field named __proto__ ${inAllOf ? 'in an allOf member' : ''} removed: breaks`, async () => {
      const removed = ourDocument();
      if (inAllOf)
        schemasOf(removed).HumanEvaluation = { allOf: [{ type: 'object' }, schemasOf(removed).HumanEvaluation] };
      const { code, stdout } = await diffTexts(json(withProtoField(inAllOf)), json(removed));
      expect(stdout).toContain('BREAKING  response 200  body.__proto__: removed');
      expect(code).toBe(1);
    });
});

describe('evalkit diff refuses what it cannot unfold, naming the file and the pointer, never an engine error', () => {
  it('a schema that is its own allOf member', async () => {
    const run = await diffTexts(json(ourDocument()), json(withStatus(ref('Loop'), { Loop: { allOf: [ref('Loop')] } })));
    expectRefusal(run, run.newFile, '#/components/schemas/Loop', 'allOf');
  });

  it('an anyOf of itself and null', async () => {
    const loop = { anyOf: [ref('Loop'), { type: 'null' }] };
    const run = await diffTexts(json(withStatus(ref('Loop'), { Loop: loop })), json(ourDocument()));
    expectRefusal(run, run.oldFile, '#/components/schemas/Loop', 'anyOf');
  });

  it('a two-step allOf loop', async () => {
    const added = { A: { allOf: [ref('B')] }, B: { allOf: [ref('A')] } };
    const run = await diffTexts(json(ourDocument()), json(withStatus(ref('A'), added)));
    expectRefusal(run, run.newFile, '#/components/schemas/A', 'allOf');
  });

  it('$refs that lead only to each other: the file, the $ref and where it is', async () => {
    const added = { A: ref('B'), B: ref('A') };
    const run = await diffTexts(json(ourDocument()), json(withStatus(ref('A'), added)));
    expectRefusal(
      run,
      run.newFile,
      'goes round in a circle',
      'at #/components/schemas/HumanEvaluation/properties/status',
    );
  });

  it('a chain of 250 schemas, each a field of the one before: deeper than 200 levels, refused', async () => {
    const chain: Record<string, unknown> = { C250: { type: 'string' } };
    for (let level = 0; level < 250; level++)
      chain[`C${level}`] = { type: 'object', properties: { next: ref(`C${level + 1}`) } };
    const document = json(withStatus(ref('C0'), chain));
    const run = await diffTexts(document, document);
    expectRefusal(run, run.oldFile, 'schemas nested deeper than 200 levels at #/components/schemas/C');
  });

  it('an anyOf with itself among other alternatives: compared, not refused', async () => {
    const document = json(withStatus(ref('L'), { L: { anyOf: [ref('L'), { type: 'string' }] } }));
    const { code, stdout } = await diffTexts(document, document);
    expect(stdout).toContain('no change to the two operations');
    expect(code).toBe(0);
  });

  it('a newline in a $ref stays on the one line, escaped', async () => {
    const run = await diffTexts(json(ourDocument()), json(withStatus(ref('a%0Aevalkit diff: forged'))));
    expectRefusal(run, run.newFile, 'the $ref #/components/schemas/a%0Aevalkit diff: forged at');
    const named = await diffTexts(json(ourDocument()), json(withStatus(ref('a\nforged'))));
    expectRefusal(named, named.newFile, 'the $ref #/components/schemas/a\\x0aforged at');
  });

  /** Our document with HumanEvaluation's `status` this schema text (one too deep to build as a value and stringify). */
  const withStatusText = (schema: string) => JSON.stringify(withStatus('SCHEMA')).replace('"SCHEMA"', schema);

  /** An object schema nested this deep, with a leaf of this type at the bottom: compared all the way down. */
  const nested = (depth: number, leaf: string) =>
    `${'{"type":"object","properties":{"a":'.repeat(depth)}{"type":"${leaf}"}${'}}'.repeat(depth)}`;

  it('a schema nested 20,000 deep, in JSON', async () => {
    const run = await diffTexts(
      { name: 'deep.json', text: withStatusText(nested(20_000, 'string')) },
      { name: 'deep.json', text: withStatusText(nested(20_000, 'integer')) },
    );
    expectRefusal(run, run.oldFile, 'nested deeper than', '#/components/schemas/HumanEvaluation/properties/status');
  });

  it('a schema nested 20,000 deep, in YAML (flow style)', async () => {
    const flow = (leaf: string) =>
      `${'{type: object, properties: {a: '.repeat(20_000)}{type: ${leaf}}${'}}'.repeat(20_000)}`;
    const yaml = (leaf: string) => stringify(withStatus('NESTED')).replace('NESTED', flow(leaf));
    const run = await diffTexts(
      { name: 'deep.yaml', text: yaml('string') },
      { name: 'deep.yaml', text: yaml('integer') },
    );
    // Refused as it is read, before the YAML parser, which recurses, would spend its stack on it.
    expectRefusal(run, run.oldFile, 'nested too deep to read (over 500 levels)');
  });

  it('YAML brackets in quotes, a block scalar, a comment: read; flow nested past 500 levels: refused', async () => {
    const brackets = '{['.repeat(600);
    const described = { ...withStatus({ type: 'string', description: `${brackets}'"` }), 'x-note': brackets };
    const text = `# ${brackets}\n${stringify(described)}x-block: |\n  ${brackets}\n`;
    // The same document as its JSON: no change.
    const read = await diffTexts(json({ ...described, 'x-block': `${brackets}\n` }), { name: 'brackets.yaml', text });
    expect(read.stderr).toBe('');
    expect(read.stdout).toContain('no change to the two operations');
    const flow = (depth: number) =>
      `${'{type: object, properties: {a: '.repeat(depth)}{type: string}${'}}'.repeat(depth)}`;
    // 249 levels of `{type: object, properties: {a: ...}}` and the leaf are 499 flow mappings: read, and refused
    // where the document's own depth passes 500 levels, the place named.
    const deep = stringify(withStatus('NESTED')).replace('NESTED', flow(249));
    const compared = await diffTexts({ name: 'deep.yaml', text: deep }, { name: 'deep.yaml', text: deep });
    expectRefusal(compared, compared.oldFile, 'nested deeper than 500 levels at #/components/schemas/HumanEvaluation');
    const over = stringify(withStatus('NESTED')).replace('NESTED', `${'['.repeat(501)}${']'.repeat(501)}`);
    const refused = await diffTexts({ name: 'over.yaml', text: over }, json(ourDocument()));
    expectRefusal(refused, refused.oldFile, 'nested too deep to read (over 500 levels)');
  });

  it('a YAML alias met again beside it and below a sibling, no cycle: read as the same document in JSON', async () => {
    const shared = { type: 'string', enum: ['a', 'b'] };
    const document = withStatus({
      type: 'object',
      properties: { first: shared, second: shared, deeper: { allOf: [shared] } },
    });
    const text = stringify(document);
    expect(text).toMatch(/\*a\d/);
    const run = await diffTexts(json(document), { name: 'aliases.yaml', text });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('no change to the two operations');
  });

  it('a YAML alias that contains itself: refused, a $ref says the same', async () => {
    const text = stringify(withStatus('ALIAS')).replace('ALIAS', '&node { type: object, properties: { next: *node } }');
    const run = await diffTexts({ name: 'alias.yaml', text }, { name: 'alias.yaml', text });
    expectRefusal(run, run.oldFile, '#/components/schemas/HumanEvaluation/properties/status', 'alias');
  });

  it('a tree (a $ref cycle through a field) is a schema: compared, each change named once', async () => {
    const tree = (value: string) => ({
      Node: {
        type: 'object',
        properties: { value: { type: value }, children: { type: 'array', items: ref('Node') } },
      },
    });
    const old = withStatus(ref('Node'), tree('string'));
    const { code, stdout } = await diffTexts(json(old), json(withStatus(ref('Node'), tree('integer'))));
    expect(stdout.split('\n').filter((line) => line.includes('type string → integer'))).toEqual([
      expect.stringMatching(
        /^ {2}BREAKING {2}response 200 {2}body\.status\.value: type string → integer \[[0-9a-f]{12}\]$/,
      ),
    ]);
    expect(code).toBe(1);
    const same = await diffTexts(json(old), json(old));
    expect(same.stdout).toContain('no change to the two operations');
  });
});
