/**
 * The one walk over a parsed JSON value: depth first, in document order, without recursion, so no nesting exhausts
 * the engine's stack. Each value met is handed to a visitor with its key (an array item's index), the object or array
 * holding it and its depth; the holder links back to the root, so a path is spelt only when one is asked for.
 */

/** An object member's name, or an array item's index. */
export type JsonKey = string | number;

/** An object or array the walk is inside, and the way back to the root. */
export interface JsonHolder {
  readonly value: object;
  /** How many objects and arrays hold it: 0 for the root. */
  readonly depth: number;
  /** The object or array holding it; undefined for the root. */
  readonly parent: JsonHolder | undefined;
  /** Its key in its parent; undefined for the root. */
  readonly key: JsonKey | undefined;
}

/** What a visitor asks of the walk: `skip` leaves the value's members unvisited, `stop` ends the walk. */
export type WalkStep = 'skip' | 'stop' | undefined;

/**
 * Called with each value: the root first (no key, no holder, depth 0), then every member of each object and array in
 * document order, a member's own members before its next sibling.
 */
export type JsonVisitor = (
  value: unknown,
  key: JsonKey | undefined,
  holder: JsonHolder | undefined,
  depth: number,
) => WalkStep | void;

interface Frame extends JsonHolder {
  /** An object's keys as they were when it was entered; undefined for an array, whose items are read by index. */
  readonly keys: string[] | undefined;
  /** The next member to visit. */
  next: number;
}

function frameOf(value: object, depth: number, parent: Frame | undefined, key: JsonKey | undefined): Frame {
  return { value, depth, parent, key, keys: Array.isArray(value) ? undefined : Object.keys(value), next: 0 };
}

function isContainer(value: unknown): value is object {
  return value !== null && typeof value === 'object';
}

/**
 * Visits every value of `root`. Only objects and arrays are stacked and array items are read by index: an array of
 * 500,000 numbers costs one frame. A visitor may replace the value it is given in its holder: the walk goes on into
 * the value it met.
 */
export function walkJson(root: unknown, visit: JsonVisitor): void {
  const first = visit(root, undefined, undefined, 0);
  if (first === 'stop' || first === 'skip' || !isContainer(root)) return;
  const stack: Frame[] = [frameOf(root, 0, undefined, undefined)];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const { value, keys } = frame;
    const depth = frame.depth + 1;
    const members = value as Record<JsonKey, unknown>;
    const length = keys === undefined ? (value as unknown[]).length : keys.length;
    let child: Frame | undefined;
    for (let index = frame.next; index < length; index++) {
      const key = keys === undefined ? index : (keys[index] as string);
      const member = members[key];
      const step = visit(member, key, frame, depth);
      if (step === 'stop') return;
      if (step !== 'skip' && isContainer(member)) {
        frame.next = index + 1;
        child = frameOf(member, depth, frame, key);
        break;
      }
    }
    if (child) stack.push(child);
    else stack.pop();
  }
}

/** The keys from the root to a value (the member `key` of `holder`; the holder itself without one), as strings. */
export function pathOf(holder: JsonHolder | undefined, key?: JsonKey): string[] {
  const tokens: string[] = key === undefined ? [] : [String(key)];
  for (let at = holder; at?.key !== undefined; at = at.parent) tokens.push(String(at.key));
  return tokens.reverse();
}
