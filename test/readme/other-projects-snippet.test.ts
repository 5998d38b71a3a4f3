import { expect, it } from 'vitest';
import { runTool } from '../helpers/node-tools.js';
import { readmeSnippet } from './snippet.js';

// The README's "In other projects" snippet, imported as written: its tests run as tests of this file.
const snippet = readmeSnippet('In other projects: types, factories, `paths`', 'other-projects');
await import(snippet);

it('type-checks as written, strict, against the built package', async () => {
  const args = ['--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--module', 'nodenext', snippet];
  const run = await runTool('typescript/bin/tsc', args);
  expect(run.stdout + run.stderr).toBe('');
  expect(run.code).toBe(0);
}, 120_000);
