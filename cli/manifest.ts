import { existsSync, readFileSync } from 'node:fs';

interface Manifest {
  name: string;
  version: string;
}

let cached: Manifest | undefined;

/** evalkit's package.json, found by walking up: modules run from source (tests) and from dist/ (the CLI) at different depths. */
export function manifest(): Manifest {
  if (cached) return cached;
  for (let dir = new URL('./', import.meta.url); dir.pathname !== '/'; dir = new URL('../', dir)) {
    const file = new URL('package.json', dir);
    if (!existsSync(file)) continue;
    const candidate = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
    if (candidate.name === 'evalkit') return (cached = candidate);
  }
  throw new Error('evalkit package.json not found');
}
