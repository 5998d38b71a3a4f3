import { join } from 'node:path';
import { projectRoot, runNodeScript, type CliRun } from './cli.js';

/** A dev tool's own script, `node_modules/<path>` of this checkout. */
export function toolPath(script: string): string {
  return join(projectRoot, 'node_modules', script);
}

/**
 * Runs a dev tool's own CLI script (`node_modules/<path>`) in a child process, as `npx` would, without the telemetry
 * or update checks some tools make: tests never reach the network.
 */
export function runTool(script: string, args: string[], timeoutMs = 90_000): Promise<CliRun> {
  return runToolScript(toolPath(script), args, timeoutMs);
}

/** Runs a script that drives a dev tool (its path), in a child process, as runTool runs the tools' own. */
export function runToolScript(script: string, args: string[], timeoutMs = 90_000): Promise<CliRun> {
  return runNodeScript(script, args, {
    cwd: projectRoot,
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: '1', REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
}

/**
 * TypeScript 7's native compiler, for the tests whose compile checks code that is not evalkit's shipped types (Kubb's
 * output, a copy of the sources): a fraction of tsc 5's time. Whatever a consumer compiles evalkit with stays on tsc 5
 * (test/pack/strict-consumer.ts), the compiler its users have.
 */
export const tsgo = '@typescript/native-preview/bin/tsgo';
