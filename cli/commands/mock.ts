import { recordFolder } from '../../api/operations.js';
import { profiles } from '../../generators/profile.js';
import { eraNames } from '../../generators/vocabulary.js';
import { defaultJournalSize, maxJournalSize } from '../../mock/control/journal.js';
import { controlPrefix } from '../../mock/control/prefix.js';
import { faults } from '../../mock/core/faults.js';
import { scenarioCodes } from '../../mock/core/scenario-answers.js';
import { scenarioKeys } from '../../mock/core/scenarios.js';
import type { Command } from '../command.js';
import { pseudonymOptions } from '../pseudonym-options.js';
import { portOption } from '../listen-options.js';
import { defaultMockHost, defaultMockPort } from '../../mock/node/defaults.js';

export const mockCommand: Command = {
  name: 'mock',
  summary: 'Run a mock Evaluation Service: both operations, seeded bodies, scenarios, fixtures, CORS.',
  options: [
    portOption(defaultMockPort),
    {
      name: 'host',
      type: 'string',
      value: 'HOST',
      description:
        'Interface to listen on. 0.0.0.0 exposes the API to the network; the control room still answers only ' +
        'this machine (localhost, 127.0.0.1, [::1]) and --allowed-hosts, not its LAN addresses unless listed.',
      defaultText: defaultMockHost,
    },
    {
      name: 'base-path',
      type: 'string',
      value: 'PATH',
      description: 'Serve both operations under PATH, e.g. /api.',
      defaultText: 'none',
    },
    {
      name: 'seed',
      type: 'string',
      value: 'S',
      description: 'Seed of generated bodies: the same seed and id give the same body.',
      defaultText: '1',
    },
    {
      name: 'profile',
      type: 'string',
      value: 'P',
      description: `Profile of generated bodies: ${profiles.join(', ')}.`,
      defaultText: 'mixed',
    },
    {
      name: 'now',
      type: 'string',
      value: 'ISO',
      description:
        "Answer as if it were this RFC 3339 instant (a created Evaluation's created_at), for byte-stable snapshots.",
      defaultText: 'the clock',
    },
    {
      name: 'fixtures',
      type: 'string',
      value: 'DIR',
      description: `Serve DIR/${recordFolder}/<id>.json (all validated at start-up).`,
    },
    { name: 'strict-ids', type: 'boolean', description: 'With --fixtures: 404 for ids that have no fixture file.' },
    {
      name: 'latency',
      type: 'string',
      value: 'MS|MIN-MAX',
      description: 'Wait before every answer: fixed, or uniform in a range.',
    },
    {
      name: 'state',
      type: 'string',
      value: 'STATE',
      description: 'Lifecycle state served, e.g. EVALUATION_FAILED or failed.',
      defaultText: 'EVALUATION_INITIALIZED for created evaluations',
    },
    {
      name: 'code',
      type: 'string',
      value: 'N',
      description: `Answer every request with this status: ${scenarioCodes.join(', ')}.`,
    },
    {
      name: 'fault',
      type: 'string',
      value: faults.join('|'),
      description: 'Break every answer: reset the connection or truncate the body.',
    },
    {
      name: 'nullable',
      type: 'boolean',
      description: 'Send absent optional fields as null, as real deployments do (outside the spec).',
    },
    {
      name: 'era',
      type: 'string',
      value: 'RELEASE',
      description:
        `The real service's era, by release (${eraNames.join(', ')}, or yours, e.g. v0.18.2): a create answers ` +
        'EVALUATION_STARTED up to 0.17; ids not implied by the request are ObjectIds up to 0.18, UUIDv7 after.',
      defaultText: 'none',
    },
    {
      name: 'era-dates',
      type: 'boolean',
      description:
        "With --era: send the era's date-times (naive up to 0.18, '2024-07-10 12:34:56.123456+00:00' after), as " +
        'the real service does (outside the spec).',
    },
    {
      name: 'progress',
      type: 'string',
      value: 'MS',
      description:
        'Move each human evaluation along as the real service does, from the moment it is first served: ' +
        'EVALUATION_INITIALIZED for MS, EVALUATION_STARTED for MS, then its final state (--state names it).',
      defaultText: 'off',
    },
    {
      name: 'scenarios',
      type: 'string',
      value: 'FILE',
      description: 'JSON scenario config: server-wide, per operation, per id (see docs/mock.md).',
    },
    {
      name: 'cors-origin',
      type: 'string',
      value: 'ORIGIN',
      multiple: true,
      description: 'Allow only this browser origin.',
      defaultText: 'any (*)',
    },
    {
      name: 'passthrough',
      type: 'string',
      value: 'URL',
      description:
        'Forward every request the mock does not serve (any path but the two operations and the control room) to ' +
        'this http(s) origin as sent, and return its answer; 502 when it cannot be reached.',
      defaultText: 'none: 404',
    },
    { name: 'no-cors', type: 'boolean', description: 'Send no CORS headers and answer no preflight.' },
    { name: 'quiet', type: 'boolean', description: 'No request log (one line per request on stderr otherwise).' },
    {
      name: 'journal-size',
      type: 'string',
      value: 'N',
      description: `Requests the control room's journal keeps (GET /__evalkit/requests), 1 to ${maxJournalSize}.`,
      defaultText: String(defaultJournalSize),
    },
    {
      name: 'no-journal',
      type: 'boolean',
      description: 'Keep no request journal (the rest of the control room stays).',
    },
    ...pseudonymOptions(
      "Keep the control room's journal (GET /__evalkit/requests, its events, the dashboard, each curl copy) with",
    ),
    {
      name: 'allowed-hosts',
      type: 'string',
      value: 'A,B',
      multiple: true,
      description:
        `Host names the control room (${controlPrefix}/) answers besides loopback ones, e.g. my-box.local, ` +
        '192.168.1.5, .example.test (a domain and its subdomains); all (or true) for any, giving up the DNS ' +
        'rebinding defence. The API answers any Host.',
      defaultText: 'loopback only',
    },
  ],
  details: [
    'Per request, a Prefer header overrides the server scenario key by key, e.g.',
    `  Prefer: code=404        Prefer: state=failed, latency=200        Prefer: fault=reset`,
    `Keys: ${scenarioKeys.join(', ')}. Stop with Ctrl-C (SIGINT) or SIGTERM.`,
    `Control room (journal, events, scenario at run time, dashboard): ${controlPrefix}/ at the root, ` +
      'whatever --base-path.',
  ].join('\n'),
  load: () => import('../run/mock.js'),
};
