import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pythonJsonError } from '../../mock/core/python-json.js';

/**
 * A thousand texts Python's json.loads refuses (mutations of request bodies: cut, a character added, dropped or
 * replaced), each with the message and position CPython 3.11 gave, made by scripts/python-json-refusals.py.
 */
const corpus = JSON.parse(readFileSync(new URL('data/python-json-refusals.json', import.meta.url), 'utf8')) as Array<{
  text: string;
  msg: string;
  pos: number;
}>;

describe("Python's json refusals, as FastAPI's json_invalid entry reports them", () => {
  it('gives the message and code-point position CPython gave, for every text of the corpus', () => {
    expect(corpus.length).toBeGreaterThan(900);
    const wrong = corpus.filter(({ text, msg, pos }) => {
      const refusal = pythonJsonError(text);
      return refusal?.msg !== msg || refusal.pos !== pos;
    });
    expect(
      wrong.slice(0, 5).map(({ text, msg, pos }) => ({ text, python: { msg, pos }, mock: pythonJsonError(text) })),
    ).toEqual([]);
  });

  it('reads what Python reads and JSON.parse does not (NaN, Infinity), and stays flat on deep nesting', () => {
    expect(pythonJsonError('{"a": NaN, "b": [-Infinity]}')).toBeUndefined();
    expect(pythonJsonError('['.repeat(200_000))).toEqual({ msg: 'Expecting value', pos: 200_000 });
  });
});
