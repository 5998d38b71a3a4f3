/*
 * evalkit/openapi for CommonJS files (a .cts, or a .ts in a CommonJS package) under TypeScript's `module: node16`,
 * which refuses a static import of an ES module's declarations: the same declarations, copied under dist/cjs/ and
 * marked CommonJS there (scripts/commonjs-declarations.mjs), re-exported. At run time, require() loads the ES module
 * itself (Node 20.19+).
 */
export * from '../dist/cjs/api/openapi.js';
