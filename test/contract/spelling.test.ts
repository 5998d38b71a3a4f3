import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { didYouMean, nearestName } from '../../http/spelling.js';
import { runs } from '../properties/runs.js';

/** Words of letters only, so two of them made apart by one letter differ by exactly that letter. */
const word = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 3, maxLength: 12 });

describe('did you mean (http/spelling.ts)', () => {
  it('guesses no name when two are as near: code=40 is one digit from 401, 403 and 404 alike', () => {
    expect(nearestName('40', ['401', '403', '404'], 1)).toBeUndefined();
    expect(didYouMean('0.1', ['0.17', '0.18', '0.19'], 1)).toBe('');
    // One nearest name is still named, in its own spelling.
    expect(nearestName('4044', ['401', '403', '404'], 1)).toBe('404');
    expect(nearestName('Progres', ['state', 'progress'])).toBe('progress');
  });

  it('property: a name one letter from the typed text is named when it alone is; two such are no guess', () => {
    fc.assert(
      fc.property(word, fc.constantFrom(...'0123456789'), fc.constantFrom(...'0123456789'), (typed, one, two) => {
        const far = `${typed}${typed}${typed}`;
        expect(didYouMean(typed, [far, `${typed}${one}`])).toBe(`; did you mean ${typed}${one}?`);
        if (one !== two) expect(didYouMean(typed, [`${typed}${one}`, far, `${typed}${two}`])).toBe('');
      }),
      runs(300),
    );
  });

  it('property: any typed text gets nothing or one of the names, in a message bounded by the longest name', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }),
        fc.array(fc.string({ maxLength: 20 }), { maxLength: 8 }),
        (typed, names) => {
          const said = didYouMean(typed, names);
          if (said === '') return;
          const named = /^; did you mean ([^]*)\?$/.exec(said)?.[1];
          expect(names).toContain(named);
          expect(said.length).toBeLessThanOrEqual('; did you mean ?'.length + 20);
        },
      ),
      runs(500),
    );
  });
});
