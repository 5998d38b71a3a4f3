import { readmeSnippet } from './snippet.js';

// The README's "In other projects" snippet, imported as written: its tests run as tests of this file. It type-checks
// as written, strict, against the installed package in test/pack/pack.test.ts's strict consumer.
await import(readmeSnippet('In other projects: types, factories, `paths`', 'other-projects'));
