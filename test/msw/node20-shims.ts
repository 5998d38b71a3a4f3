/**
 * msw 3 declares Node >= 22.12; this project supports Node 20.19+. What msw/node uses that Node 20 lacks is three
 * ES2024/2025 built-ins: Promise.withResolvers and Set's intersection and difference. Imported before msw by the Node
 * tests, so they run on both lines; on Node 22 this adds nothing.
 */
type SetLike<T> = { has(value: T): boolean };

function define(target: object, name: string, value: unknown): void {
  if (!(name in target)) Object.defineProperty(target, name, { configurable: true, writable: true, value });
}

define(Promise, 'withResolvers', function withResolvers<T>() {
  let resolve!: (value: T | PromiseLike<T>) => void;
  let reject!: (reason?: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
});
define(Set.prototype, 'intersection', function intersection<T>(this: Set<T>, other: SetLike<T>) {
  return new Set([...this].filter((value) => other.has(value)));
});
define(Set.prototype, 'difference', function difference<T>(this: Set<T>, other: SetLike<T>) {
  return new Set([...this].filter((value) => !other.has(value)));
});
