/** JSON Pointers (RFC 6901), the one way issues, probes and checks name a place in a document. */

/** A pointer from property names and indices: `['rate_limit', 'batch_size']` -> `/rate_limit/batch_size`. */
export function pointerOf(path: readonly string[]): string {
  return path.map((key) => `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** The property names and indices a pointer holds, unescaped: the inverse of pointerOf. */
export function pointerTokens(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value a pointer names in a document; undefined where the path leaves it. */
export function valueAt(data: unknown, pointer: string): unknown {
  let node = data;
  for (const token of pointerTokens(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
