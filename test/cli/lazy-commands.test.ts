import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/cli.js';

/** The modules a file loads when it is imported: its static imports, not `import type` nor `import()`. */
function staticImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const pattern = /^(?:import|export)\s+(?!type\b)(?:[^'";]*?\bfrom\s+)?'([^']+)'/gm;
  return [...source.matchAll(pattern)].map((match) => match[1] as string);
}

/** Every module `entry` loads, by path relative to the project, and the packages among them. */
function loadedBy(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    const name = relative(projectRoot, file);
    if (files.has(name)) return;
    files.add(name);
    if (file.endsWith('.json')) return;
    for (const specifier of staticImports(file)) {
      if (!specifier.startsWith('.')) packages.add(specifier);
      else visit(join(dirname(file), specifier.replace(/\.js$/, '.ts')));
    }
  };
  visit(join(projectRoot, entry));
  return { files, packages };
}

describe('the command table', () => {
  const { files, packages } = loadedBy('cli/main.ts');

  it('loads no package but Node built-ins: --version, --help and usage errors stay fast', () => {
    expect([...packages].filter((name) => !name.startsWith('node:'))).toEqual([]);
  });

  it("loads no command's implementation until the command runs", () => {
    expect([...files].filter((file) => file.startsWith('cli/run/'))).toEqual([]);
    for (const heavy of ['contract/index.ts', 'generators/index.ts', 'mock/index.ts', 'proxy/index.ts'])
      expect(files).not.toContain(heavy);
  });

  it('is what the walk above reads: the implementation of a command is a static import of cli/run', () => {
    expect(loadedBy('cli/run/contract.ts').files).toContain('contract/index.ts');
    expect([...loadedBy('cli/run/fixtures.ts').packages]).toContain('ajv-formats/dist/formats.js');
  });
});
