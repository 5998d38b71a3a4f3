/**
 * The mock's own limits. The spec shows no service-wide limits; these keep one request's cost bounded (a 1 MiB body
 * could otherwise ask for 40,000 variants times 40,000 evaluator configs) and are documented in docs/mock.md.
 */
export const maxBodyBytes = 1024 * 1024;
/** Longer than any ObjectId or UUID by far, short enough that a cache of bodies keyed by id stays small. */
export const maxIdLength = 1024;
export const maxListItems = 100;
/** The create request nests three levels deep; anything far deeper is an attack or a bug, not a request. */
export const maxBodyDepth = 32;
/** Distinct generated bodies kept serialized: a UI's working set of ids, bounded whatever clients send. */
export const cachedBodies = 1_000;
