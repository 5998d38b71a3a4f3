import { defaultKeyFile } from '../http/pseudonym-key.js';
import type { OptionSpec } from './command.js';

/**
 * `--pseudonymize` and `--pseudonym-key`, which `proxy`, `mock` and `fixtures` share; `what`: what is rewritten. The
 * command table reads these; the pseudonymizer is made by cli/pseudonymizer-option.ts, loaded when a command runs.
 */
export function pseudonymOptions(what: string): OptionSpec[] {
  return [
    {
      name: 'pseudonymize',
      type: 'boolean',
      description:
        `${what} every personal value (the fields the schemas mark x-personal: user, app, variant and test set ` +
        "ids and names, models' outputs) as a stable pseudonym of the same form, from a keyed hash of the original.",
    },
    {
      name: 'pseudonym-key',
      type: 'string',
      value: 'FILE',
      description:
        'The key of the pseudonyms (created, mode 0600, when missing): the same key gives the same pseudonyms. ' +
        'Keep it out of the repository; never inside the folder written.',
      defaultText: defaultKeyFile,
    },
  ];
}
