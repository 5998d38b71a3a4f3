/** Where `evalkit mock` listens unless told otherwise (Prism's port): on its own, so `--help` loads no server code. */
export const defaultMockPort = 4010;
export const defaultMockHost = '127.0.0.1';
