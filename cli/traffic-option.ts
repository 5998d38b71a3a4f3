import { readTraffic, TrafficProblem, type Traffic } from '../http/traffic.js';
import { stringOption, UsageError, type OptionValues } from './command.js';

/**
 * The recorded traffic an option names (`contract --replay`, `diff --traffic`): a saved GET /__evalkit/requests or a
 * proxy --record folder, with the path it came from. One that cannot be read is a usage error naming the option.
 */
export async function trafficOption(
  values: OptionValues,
  option: string,
): Promise<{ source: string; traffic: Traffic } | undefined> {
  const path = stringOption(values, option);
  if (path === undefined) return undefined;
  try {
    return { source: path, traffic: await readTraffic(path) };
  } catch (error) {
    if (error instanceof TrafficProblem) throw new UsageError(`--${option}: ${error.message}`);
    throw error;
  }
}
