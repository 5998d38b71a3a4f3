/** A count with its noun, one or many (`1 note`, `2 notes`, `3 differences`): every report line says it so. */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}
