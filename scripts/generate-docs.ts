import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedDocs, renderDocRegions } from './docs-tables.js';

// `npm run docs`: the docs' generated tables written anew from the code (scripts/docs-tables.ts).
const root = fileURLToPath(new URL('../../', import.meta.url));
for (const doc of generatedDocs) {
  const file = join(root, doc);
  const text = readFileSync(file, 'utf8');
  const rendered = renderDocRegions(text);
  if (rendered !== text) writeFileSync(file, rendered);
  console.log(`${doc}: ${rendered === text ? 'unchanged' : 'written'}`);
}
