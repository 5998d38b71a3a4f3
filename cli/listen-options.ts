import { integerOption, stringOption, type OptionSpec, type OptionValues } from './command.js';

/** `--port`, as the commands that listen (mock, proxy) describe it, each with its own default. */
export function portOption(defaultPort: number): OptionSpec {
  return {
    name: 'port',
    type: 'string',
    value: 'N',
    description: 'Port to listen on; 0 picks a free one.',
    defaultText: String(defaultPort),
  };
}

/** Where a listening command listens: the --port and --host given, else its defaults. */
export function listenAddress(
  values: OptionValues,
  defaults: { port: number; host: string },
): { port: number; host: string } {
  return {
    port: integerOption(values, 'port', 0, 65535) ?? defaults.port,
    host: stringOption(values, 'host') ?? defaults.host,
  };
}
