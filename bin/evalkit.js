#!/usr/bin/env node
// The CLI is compiled by `npm ci` / `npm install` in a checkout (the postprepare script), by the install from git and
// by `npm pack` (prepack); this file only hands over to it.
import { main } from '../dist/cli/main.js';
import { shutdownSignal } from '../dist/cli/shutdown.js';

const io = { stdout: process.stdout, stderr: process.stderr, env: process.env, untilShutdown: shutdownSignal };
process.exitCode = await main(process.argv.slice(2), io);
