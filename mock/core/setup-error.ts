/** Options, a scenario or a fixture the mock cannot start with; the CLI prints the message and exits 2. */
export class MockSetupError extends Error {}
