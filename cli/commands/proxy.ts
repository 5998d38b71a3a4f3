import { recordFolder } from '../../api/operations.js';
import type { Command } from '../command.js';
import { portOption } from '../listen-options.js';
import { pseudonymOptions } from '../pseudonym-options.js';
import { ignoreOption, minCoverageOption, reportOptions, strictOption } from '../report-options.js';
import { defaultProxyHost, defaultProxyPort } from '../../proxy/defaults.js';
import { defaultTimeoutMs } from '../../http/timeouts.js';

export const proxyCommand: Command = {
  name: 'proxy',
  summary:
    'Sit in front of a deployment, forward all traffic unchanged, check every exchange against the contract, ' +
    'record fixtures.',
  options: [
    {
      name: 'target',
      type: 'string',
      value: 'URL',
      description:
        'The deployment, may carry a base path (https://host/api): a request for /x goes to URL/x. Required.',
    },
    portOption(defaultProxyPort),
    {
      name: 'host',
      type: 'string',
      value: 'HOST',
      description:
        'Interface to listen on. Whoever reaches it sends requests to the target with the --header values: ' +
        '0.0.0.0 lends them to the network.',
      defaultText: defaultProxyHost,
    },
    {
      name: 'header',
      type: 'string',
      value: '"Name: value"',
      multiple: true,
      description: 'Set on every forwarded request (auth); never printed.',
    },
    {
      name: 'record',
      type: 'string',
      value: 'DIR',
      description:
        `Write each valid 200 answer of GET /${recordFolder}/{id} as DIR/${recordFolder}/<id>.json ` +
        '(for evalkit mock --fixtures DIR), and each request of the two operations, credentials as placeholders, ' +
        'as a line of DIR/requests.jsonl (for evalkit contract --replay and evalkit diff --traffic).',
    },
    ...pseudonymOptions('Write the --record folder with'),
    {
      name: 'timeout',
      type: 'string',
      value: 'MS',
      description: 'No byte from the target for this long: 504 (or a cut answer) and a transport error.',
      defaultText: String(defaultTimeoutMs),
    },
    strictOption,
    minCoverageOption,
    ignoreOption,
    ...reportOptions,
  ],
  details: [
    'Violations print as they happen; the report is written when the proxy stops (Ctrl-C / SIGINT, or SIGTERM).',
    'Exit codes as for contract: 0 no error-level failure; 1 an error-level failure (with --strict, any);',
    '1 also when nothing was verified (no traffic, or no success answer of the two operations to check),',
    '  or when coverage is under --min-coverage;',
    '2 a usage error, a report that cannot be written, or no request ever reached the target.',
    'Findings whose id --ignore FILE lists are shown as accepted and fail nothing; ids no finding had are stale.',
  ].join('\n'),
  load: () => import('../run/proxy.js'),
};
