import { readmeSnippet } from './snippet.js';

// The README's "In Vitest/Jest with msw/node" snippet, imported as written: its tests run as tests of this file.
await import(readmeSnippet('In Vitest/Jest with msw/node', 'msw-node'));
