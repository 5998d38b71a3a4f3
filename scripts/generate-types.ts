import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderResourceTypes } from '../schemas/types/render.js';

/** Writes schemas/types/resources.ts from schemas/; `npm run types` runs it, and a test fails when the file drifts. */
const target = fileURLToPath(new URL('../../schemas/types/resources.ts', import.meta.url));
writeFileSync(target, await renderResourceTypes());
console.log(`wrote ${target}`);
