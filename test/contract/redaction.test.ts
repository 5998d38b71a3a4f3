import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containsSecret, Redactor, type Secret } from '../../http/redaction.js';
import { runs } from '../properties/runs.js';

/** A credential as services issue them: token characters, long enough to redact in every encoding. */
const token = fc.string({
  minLength: 8,
  maxLength: 24,
  unit: fc.constantFrom(...'abcdefXYZ0189-_.~+/='.split('')),
});

/** How a deployment may echo a value: as it is, base64, every character a JSON \u escape, percent-encoded. */
const encodings: Array<(value: string) => string> = [
  (value) => value,
  (value) => Buffer.from(value).toString('base64'),
  (value) => [...value].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  (value) => encodeURIComponent(value),
];

/** Text around the echoes: words, spaces and JSON punctuation, none of a placeholder's brackets. */
const filler = fc.string({ maxLength: 12, unit: fc.constantFrom(...'qrs ,:"{}[]'.split('')) });

describe('Redactor over any credentials and any text that echoes them', () => {
  it('property: no credential stays in any encoding; each list, used in turn, puts its own placeholders', () => {
    const echo = fc.tuple(filler, fc.nat(), fc.nat(encodings.length - 1));
    fc.assert(
      fc.property(
        fc.uniqueArray(token, { minLength: 1, maxLength: 3 }),
        fc.array(echo, { minLength: 1, maxLength: 6 }),
        filler,
        (values, echoes, tail) => {
          const text =
            echoes
              .map(([before, pick, encoding]) => before + encodings[encoding]!(values[pick % values.length]!))
              .join('') + tail;
          // Two lists of the same values, told apart by their placeholders only: the forms each builds are kept
          // apart, whichever was used last.
          const lists = ['A', 'B'].map((name) =>
            values.map((value, index): Secret => ({ value, placeholder: `<${name}${index}>` })),
          );
          // One redactor whose list changes between calls, as a run's canaries grow: each call redacts with the list
          // as it is then.
          let current = lists[0]!;
          const redactor = new Redactor(() => current);
          for (const list of [lists[0]!, lists[1]!, lists[0]!]) {
            current = list;
            const redacted = redactor.text(text);
            expect(containsSecret(redacted, values)).toBe(false);
            const placeholders = redacted.match(/<[AB]\d>/g) ?? [];
            expect(placeholders.length).toBeGreaterThan(0);
            expect(new Set(placeholders.map((placeholder) => placeholder[1]))).toEqual(
              new Set([list[0]!.placeholder[1]]),
            );
          }
          // One array of values emptied in place between two searches: the second finds nothing. (Its '' is too short
          // to redact: it makes the list other than the one searched just before.)
          const searched = [...values, ''];
          expect(containsSecret(text, searched)).toBe(true);
          searched.length = 0;
          expect(containsSecret(text, searched)).toBe(false);
        },
      ),
      runs(300),
    );
  });
});
