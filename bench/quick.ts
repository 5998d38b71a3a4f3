/**
 * Quick mode, the one reading of it for every bench: `EVALKIT_BENCH_QUICK=1` or a `--quick` argument. Each measure
 * then runs briefly, with small counts, and prints every figure line a full run prints: the suite runs each bench so
 * (test/bench/smoke.test.ts), and a bench that hangs or breaks is a red test. Its figures are not measures, so a
 * target it misses does not fail the process.
 */
export interface BenchMode {
  quick: boolean;
  /** The command's arguments with `--quick` left out: the positional options each bench reads. */
  args: string[];
}

const quickVariable = 'EVALKIT_BENCH_QUICK';
const quickFlag = '--quick';

/** Quick mode from an environment and arguments, or the one line that says why the variable's value is refused. */
export function readBenchMode(env: Record<string, string | undefined>, argv: readonly string[]): BenchMode | string {
  const value = env[quickVariable];
  if (value !== undefined && value !== '' && value !== '0' && value !== '1')
    return `${quickVariable} must be 1 (quick mode) or 0 (a full run), not ${JSON.stringify(value.slice(0, 40))}`;
  return { quick: value === '1' || argv.includes(quickFlag), args: argv.filter((arg) => arg !== quickFlag) };
}

let mode: BenchMode | undefined;

/** This process's mode, read once; a refused value ends the process with status 2 and one line. */
export function benchMode(): BenchMode {
  if (mode) return mode;
  const read = readBenchMode(process.env, process.argv.slice(2));
  if (typeof read === 'string') {
    process.stderr.write(`${read}\n`);
    process.exit(2);
  }
  if (read.quick)
    process.stderr.write(`quick mode: brief measures, small counts; its figures are not measures, no target judged\n`);
  return (mode = read);
}

/** `full` in a measuring run, `small` in quick mode. */
export function sized<T>(full: T, small: T): T {
  return benchMode().quick ? small : full;
}

/** A missed target fails a measuring run; a quick run measures nothing, so it judges nothing. */
export function failIfMissed(missed: boolean): void {
  if (missed && !benchMode().quick) process.exitCode = 1;
}
