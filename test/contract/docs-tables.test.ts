import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docRegions, generatedDocs, renderDocRegions } from '../../scripts/docs-tables.js';
import { projectRoot } from '../helpers/cli.js';

describe('the tables the docs restate from code', () => {
  it.each(generatedDocs)('%s holds them as the code renders them (`npm run docs` after a change)', (doc) => {
    const text = readFileSync(join(projectRoot, doc), 'utf8');
    expect(docRegions(text).length).toBeGreaterThan(0);
    expect(text).toBe(renderDocRegions(text));
  });

  it('docs/contract.md holds the checks, the bank and the options; an unknown region is refused by name', () => {
    const text = readFileSync(join(projectRoot, 'docs/contract.md'), 'utf8');
    expect(docRegions(text).sort()).toEqual([
      'bank-conforming',
      'bank-mutations',
      'bank-score',
      'checks',
      'contract-options',
    ]);
    expect(() => renderDocRegions('<!-- generated: chekcs (npm run docs) -->\n\n<!-- end: chekcs -->')).toThrow(
      "no generated table named 'chekcs'",
    );
  });
});
