/**
 * "Did you mean": the name a typo most likely meant, for every refusal a person typed (a flag, a command, a scenario
 * key or value, a control-room section): one rule, so each suggests alike.
 */

/**
 * Edit distance with a swap of two neighbours counted as one edit (optimal string alignment), for suggesting the name
 * a typo meant: `ture` is one slip from `true`, as `--prot` is from `--port`.
 */
function distance(a: string, b: string): number {
  let before: number[] = [];
  let row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(
        (row[j] as number) + 1,
        (next[j - 1] as number) + 1,
        (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        next[j] = Math.min(next[j] as number, (before[j - 2] as number) + 1);
    }
    before = row;
    row = next;
  }
  return row[b.length] as number;
}

/**
 * The name a typo most likely meant: the nearest by spelling, letter case aside (`evaluation` is `Evaluation`, `NDJSON`
 * is `ndjson`), when it is near enough to be a typo: a third of its letters, and at least `slack` (2 lets `--prot`
 * be `--port`; a value among short words takes 1, so `toml` is not taken for `yaml`). Two names as near as each other
 * are no guess: `code=40` is as near 401 as 403 and 404, and naming one would pick it for the person.
 */
export function nearestName(typed: string, names: readonly string[], slack = 2): string | undefined {
  const lower = typed.toLowerCase();
  const spelt = [...new Set(names.map((name) => name.toLowerCase()))].map(
    (name) => [name, distance(lower, name)] as const,
  );
  const [nearest, second] = spelt.sort((a, b) => a[1] - b[1]);
  if (nearest === undefined || nearest[1] > Math.max(slack, Math.floor(nearest[0].length / 3))) return undefined;
  if (second !== undefined && second[1] === nearest[1]) return undefined;
  return names.find((name) => name.toLowerCase() === nearest[0]);
}

/**
 * `; did you mean X?` when a name a person typed is near one of `names`; nothing otherwise. A value among short words
 * takes a `slack` of 1 (http/spelling.ts), so `418` is not taken for `401`.
 */
export function didYouMean(typed: string, names: readonly string[], slack?: number): string {
  // A name far longer than any accepted one is no typo; the bound also keeps the edit distance cheap.
  const close = typed.length <= 64 ? nearestName(typed, names, slack) : undefined;
  return close === undefined ? '' : `; did you mean ${close}?`;
}
