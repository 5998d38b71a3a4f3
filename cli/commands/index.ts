import type { Command } from '../command.js';
import { contractCommand } from './contract.js';
import { diffCommand } from './diff.js';
import { fixturesCommand } from './fixtures.js';
import { mockCommand } from './mock.js';
import { openapiCommand } from './openapi.js';
import { proxyCommand } from './proxy.js';

/** Every command of the CLI, in the order `evalkit --help` lists them. */
export const commands: Command[] = [
  mockCommand,
  fixturesCommand,
  openapiCommand,
  contractCommand,
  proxyCommand,
  diffCommand,
];
