/** The value below which p percent of the values fall (nearest rank, no interpolation). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

export function median(values: number[]): number {
  return percentile(values, 50);
}
