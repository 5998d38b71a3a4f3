import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/cli.js';

interface Conditions {
  require: { types: string; default: string };
  types: string;
  default: string;
}

const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
  exports: Record<string, string | Conditions>;
  typesVersions: { '*': Record<string, string[]> };
};

/** The entries of `exports` that have a module (not `./schemas/*.json`, not `./package.json`). */
const entries = Object.entries(manifest.exports).filter(
  (entry): entry is [string, Conditions] => typeof entry[1] === 'object',
);

/**
 * cjs/ holds one `.d.cts` per package entry, written by hand beside package.json's `exports`; these checks keep the two
 * (and `typesVersions`, for `moduleResolution: node`) telling one story without packing anything.
 */
describe("package.json's exports, cjs/ and typesVersions", () => {
  it.each(entries)('%s: require loads the same module, and its .d.cts re-exports that module', (subpath, entry) => {
    expect(entry.require.default).toBe(entry.default);
    const name = subpath === '.' ? 'index' : subpath.slice(2);
    expect(entry.require.types).toBe(`./cjs/${name}.d.cts`);
    const declarations = readFileSync(join(projectRoot, entry.require.types), 'utf8');
    expect(declarations).toContain(`evalkit${subpath.slice(1)} for CommonJS`);
    const target = entry.types.replace(/^\.\/dist\//, '../dist/cjs/').replace(/\.d\.ts$/, '.js');
    expect(declarations.trim().split('\n').at(-1)).toBe(`export * from '${target}';`);
    if (subpath !== '.') expect(manifest.typesVersions['*'][name]).toEqual([entry.types.slice(2)]);
  });

  it('names every file of cjs/, and typesVersions no other entry', () => {
    const named = entries.map(([, entry]) => entry.require.types.slice('./cjs/'.length));
    expect(readdirSync(join(projectRoot, 'cjs')).sort()).toEqual(named.sort());
    expect(Object.keys(manifest.typesVersions['*']).sort()).toEqual(
      entries
        .filter(([subpath]) => subpath !== '.')
        .map(([subpath]) => subpath.slice(2))
        .sort(),
    );
  });
});
