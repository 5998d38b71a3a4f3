#!/usr/bin/env node
// The CLI is compiled by `npm ci` / `npm install` (the prepare script); this file only hands over to it.
import { main } from '../dist/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    // Last resort: one line, never a stack trace, for anything a command did not turn into a report.
    process.stderr.write(`evalkit: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
