/** Options, a scenario or a fixture the mock cannot start with; the CLI prints the message and exits 2. */
export class MockSetupError extends Error {
  // Named in code, not from the class: a minified bundle renames classes, and a printed error should say which it is.
  override name = 'MockSetupError';
}
