import { _ } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standalone from 'ajv/dist/standalone/index.js';
import { schemaFor, schemaId, schemaNames } from '../schemas/index.js';
import { formats } from '../schemas/validators/formats.js';
import { personalKeywordDefinition } from '../schemas/personal.js';

/**
 * The ajv that compiles schemas/ into standalone code: the options the validators have always had (strict, every
 * error, union types), every schema registered, the personal-field annotation known, and formats looked up in the
 * emitted module's `formats` import.
 */
// ajv's standalone module is CommonJS: its function is both the module and its `default`; only `default` is typed.
const standaloneCode = standalone.default;

export function compilingAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    allowUnionTypes: true,
    // One statement a line: a reviewer can read a change in it. It is left unformatted (.prettierignore): prettier took
    // 0.8 s a run for the drift test, eight times the compile.
    code: { source: true, esm: true, lines: true, formats: _`formats` },
  });
  for (const [name, definition] of Object.entries(formats)) ajv.addFormat(name, definition);
  // An annotation (schemas/personal.ts): strict mode refuses a keyword it has not been told of.
  ajv.addKeyword(personalKeywordDefinition);
  for (const name of schemaNames) ajv.addSchema(schemaFor(name));
  return ajv;
}

/**
 * The source of schemas/validators/compiled.ts: one validate function per schema (`validateHumanEvaluation`...),
 * compiled ahead of time, so validating never builds code at run time (`new Function`, which a page whose
 * Content-Security-Policy forbids eval refuses) and no bundle carries ajv's compiler.
 */
export function standaloneValidatorsSource(): string {
  const exports = Object.fromEntries(schemaNames.map((name) => [`validate${name}`, schemaId(name)]));
  const code = standaloneCode(compilingAjv(), exports);
  return [
    "/* Generated from schemas/ by `npm run validators` (scripts/standalone-validators.ts): ajv's standalone code.",
    '   Do not edit: a test fails when this file and the schemas differ. */',
    '/* eslint-disable max-len */',
    '// @ts-nocheck',
    '// Generated JavaScript: schemas/validators/index.ts types it where it imports it.',
    "import { formats } from './formats.js';",
    // A module is strict already, and after the import ajv's directive would be a bare string.
    code.replace(/^"use strict";\n?/, ''),
  ].join('\n');
}
