/** Where `evalkit proxy` listens unless told otherwise: apart, so `--help` names it without loading the proxy. */
export const defaultProxyPort = 4011;
export const defaultProxyHost = '127.0.0.1';
