import { defaultConcurrency, maxConcurrency } from '../../contract/run/pacing.js';
import type { Command } from '../command.js';
import { ignoreOption, minCoverageOption, reportOptions, strictOption } from '../report-options.js';
import { defaultTimeoutMs } from '../../http/timeouts.js';

export const contractCommand: Command = {
  name: 'contract',
  summary: 'Check a deployment at a base URL against the contract: every violation caught, no false alarms.',
  options: [
    {
      name: 'base-url',
      type: 'string',
      value: 'URL',
      description: 'The deployment, may carry a path (https://host/api). Required.',
    },
    {
      name: 'human-evaluation-id',
      type: 'string',
      value: 'ID',
      description: 'An id that exists there.',
      defaultText: "the schema example's id, which mocks serve",
    },
    {
      name: 'create-body',
      type: 'string',
      value: 'FILE',
      description:
        'A JSON create request valid for that deployment (real ids). ' +
        'Its lm_providers_keys values are replaced by canaries.',
      defaultText: 'a generated one',
    },
    {
      name: 'header',
      type: 'string',
      value: '"Name: value"',
      multiple: true,
      description: 'Sent with every request (auth); never printed.',
    },
    {
      name: 'timeout',
      type: 'string',
      value: 'MS',
      description: 'Timeout per request.',
      defaultText: String(defaultTimeoutMs),
    },
    strictOption,
    minCoverageOption,
    {
      name: 'read-only',
      type: 'boolean',
      description: 'Send nothing that could create data: GETs and one malformed-JSON POST only.',
    },
    {
      name: 'examples',
      type: 'string',
      value: 'N',
      description: 'Property-based create requests (half valid, half invalid), failures shrunk and printed as curl.',
      defaultText: '0',
    },
    {
      name: 'seed',
      type: 'string',
      value: 'S',
      description: 'Seed of generated bodies, canaries and properties.',
      defaultText: '1',
    },
    {
      name: 'concurrency',
      type: 'string',
      value: 'N',
      description:
        `Requests in flight at once, 1 to ${maxConcurrency}; the report is the same at any N. ` +
        'The default stays under the 6 connections a browser opens to one origin: ' +
        "a shared staging server gets no more at once than from one person's browser.",
      defaultText: String(defaultConcurrency),
    },
    {
      name: 'rate-limit',
      type: 'string',
      value: 'N/s',
      description:
        'Start at most N requests per second (a shared or rate-limited server). ' +
        'With or without it, a 429 is waited on (its Retry-After, else a backoff from 1 s) ' +
        'and retried while the waits of a request fit in --timeout: never a failure by itself.',
      defaultText: 'no cap',
    },
    {
      name: 'ca',
      type: 'string',
      value: 'FILE',
      description: 'Trust the CA certificates in this PEM file (a self-signed or private CA).',
    },
    {
      name: 'replay',
      type: 'string',
      value: 'PATH',
      description:
        'Send the requests your app sent instead of generated ones: a saved GET /__evalkit/requests (evalkit mock) ' +
        'or an evalkit proxy --record folder. A request the mock accepted and the deployment refuses fails the run.',
    },
    { name: 'insecure', type: 'boolean', description: 'Do not verify TLS certificates at all; every report says so.' },
    {
      name: 'compare-mock',
      type: 'boolean',
      description:
        "Ask evalkit's mock every request too and report where its answers differ from the deployment's on what a " +
        'frontend sees (statuses, error bodies, ids, dates, null or absent), with the closest mock settings.',
    },
    {
      name: 'mock-era',
      type: 'string',
      value: 'RELEASE',
      description: "With --compare-mock: the compared mock's --era.",
      defaultText: 'none',
    },
    { name: 'mock-era-dates', type: 'boolean', description: "With --compare-mock: the compared mock's --era-dates." },
    { name: 'mock-nullable', type: 'boolean', description: "With --compare-mock: the compared mock's --nullable." },
    {
      name: 'mock-scenarios',
      type: 'string',
      value: 'FILE',
      description: "With --compare-mock: the compared mock's --scenarios file.",
    },
    {
      name: 'fail-on-drift',
      type: 'boolean',
      description: 'With --compare-mock: exit 1 when the mock as given differs from the deployment.',
    },
    {
      ...ignoreOption,
      description: `${ignoreOption.description} With --compare-mock, differences too (fail no --fail-on-drift).`,
    },
    ...reportOptions,
  ],
  details: [
    'Exit codes: 0 no error-level failure; 1 an error-level failure (with --strict, any failure);',
    '1 also when nothing could be verified (every request 401/403 or 404, no success answer to check),',
    '  or when coverage is under --min-coverage (the verdict line says which);',
    '2 a usage error, or the deployment cannot be reached at all ' +
      '(nothing listening, a certificate that does not verify).',
    'Checks, severities and the spec line each enforces: docs/contract.md.',
    'Findings whose id --ignore FILE lists are shown as accepted and fail nothing; ids no finding had are stale.',
  ].join('\n'),
  load: () => import('../run/contract.js'),
};
