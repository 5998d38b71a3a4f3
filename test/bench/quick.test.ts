import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBenchMode } from '../../bench/quick.js';

const variable = 'EVALKIT_BENCH_QUICK';
const seed = 20_270;
/** Arguments as a shell passes them: any strings, `--quick` among them now and then, in any place. */
const argv = fc.array(fc.oneof(fc.string(), fc.constant('--quick'), fc.constant('--quick=1')), { maxLength: 6 });

describe('the benches read quick mode once, from EVALKIT_BENCH_QUICK or --quick', () => {
  it('examples', () => {
    expect(readBenchMode({ [variable]: '1' }, ['3'])).toEqual({ quick: true, args: ['3'] });
    expect(readBenchMode({}, ['2', '--quick', 'mixed'])).toEqual({ quick: true, args: ['2', 'mixed'] });
    expect(readBenchMode({ [variable]: '0' }, ['skip-slow'])).toEqual({ quick: false, args: ['skip-slow'] });
    expect(readBenchMode({}, [])).toEqual({ quick: false, args: [] });
    expect(readBenchMode({ [variable]: 'yes' }, [])).toBe(
      'EVALKIT_BENCH_QUICK must be 1 (quick mode) or 0 (a full run), not "yes"',
    );
  });

  it('property: a value it knows is applied, and --quick alone leaves the arguments', () => {
    fc.assert(
      fc.property(fc.constantFrom(undefined, '', '0', '1'), argv, (value, args) => {
        const mode = readBenchMode({ [variable]: value }, args);
        expect(mode).toEqual({
          quick: value === '1' || args.includes('--quick'),
          args: args.filter((arg) => arg !== '--quick'),
        });
      }),
      { seed, numRuns: 300 },
    );
  });

  it('property: any other value is refused in one short line naming the variable', () => {
    const other = fc
      .oneof(fc.string({ minLength: 1 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 5_000 }))
      .filter((value) => !['', '0', '1'].includes(value));
    const neighbours = fc.constantFrom(' 1', '1 ', '01', '2', '-1', 'true', 'false', 'yes', '1\n', '\u0000', '１');
    fc.assert(
      fc.property(fc.oneof(other, neighbours), argv, (value, args) => {
        const refusal = readBenchMode({ [variable]: value }, args);
        expect(typeof refusal).toBe('string');
        expect(refusal).toContain(variable);
        expect(refusal).not.toMatch(/[\n\r]/);
        expect((refusal as string).length).toBeLessThan(400);
      }),
      { seed, numRuns: 300 },
    );
  });
});
