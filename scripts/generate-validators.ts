import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { standaloneValidatorsSource } from './standalone-validators.js';

/** Writes schemas/validators/compiled.ts from schemas/; `npm run validators` runs it, and a test fails on drift. */
const target = fileURLToPath(new URL('../../schemas/validators/compiled.ts', import.meta.url));
writeFileSync(target, standaloneValidatorsSource());
console.log(`wrote ${target}`);
