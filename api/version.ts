/**
 * evalkit's version, as `evalkit --version` and the OpenAPI document's `info.version` print it. A constant rather than
 * a read of package.json, so the browser bundle and `--version` need no file system; a test keeps it equal to
 * package.json's.
 */
export const evalkitVersion = '0.1.0';
