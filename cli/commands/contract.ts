import { readFile } from 'node:fs/promises';
import {
  ContractOptionError,
  defaultConcurrency,
  exitCode,
  maxConcurrency,
  runContract,
  terminalReport,
  terminalStyle,
} from '../../contract/index.js';
import { excessiveNesting } from '../../http/json-body.js';
import { integerOption, stringOption, UsageError, type Command, type OptionValues } from '../command.js';
import { boundHeapGrowth } from '../heap-growth.js';
import { writeOut } from '../output.js';
import { checkReportPaths, reportOptions, writeReports } from '../reports.js';

/** `Name: value` pairs; a malformed one is a usage error that names the header but never prints its value. */
export function headers(values: OptionValues): Record<string, string> {
  const raw = values.header;
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
  const out: Record<string, string> = {};
  for (const entry of list) {
    const colon = entry.indexOf(':');
    const name = colon > 0 ? entry.slice(0, colon).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new UsageError(
        `--header must be "Name: value" with a valid header name (got one starting ${JSON.stringify(entry.slice(0, Math.max(colon, 0)).slice(0, 20))})`,
      );
    out[name] = entry.slice(colon + 1).trim();
  }
  return out;
}

async function createBody(file: string | undefined): Promise<Record<string, unknown> | undefined> {
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--create-body cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new UsageError(`--create-body ${file} is not JSON`);
  }
  const nesting = excessiveNesting(body);
  if (nesting) throw new UsageError(`--create-body ${file} is ${nesting}`);
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new UsageError(`--create-body ${file} must hold a JSON object`);
  return body as Record<string, unknown>;
}

/** PEM CA certificates for --ca. */
async function caFile(file: string | undefined): Promise<string | undefined> {
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--ca cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw new UsageError(`--ca ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return text;
}

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
        'A JSON create request valid for that deployment (real ids). Its lm_providers_keys values are replaced by canaries.',
      defaultText: 'a generated one',
    },
    {
      name: 'header',
      type: 'string',
      value: '"Name: value"',
      multiple: true,
      description: 'Sent with every request (auth); never printed.',
    },
    { name: 'timeout', type: 'string', value: 'MS', description: 'Timeout per request.', defaultText: '10000' },
    { name: 'strict', type: 'boolean', description: 'Exit 1 on any failed check, warnings included.' },
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
      description: `Requests in flight at once, 1 to ${maxConcurrency}; the report is the same at any N. The default stays under the 6 connections a browser opens to one origin: a shared staging server gets no more at once than from one person's browser.`,
      defaultText: String(defaultConcurrency),
    },
    {
      name: 'rate-limit',
      type: 'string',
      value: 'N/s',
      description:
        'Start at most N requests per second (a shared or rate-limited server). With or without it, a 429 is waited on (its Retry-After, else a backoff from 1 s) and retried while the waits of a request fit in --timeout: never a failure by itself.',
      defaultText: 'no cap',
    },
    {
      name: 'ca',
      type: 'string',
      value: 'FILE',
      description: 'Trust the CA certificates in this PEM file (a self-signed or private CA).',
    },
    { name: 'insecure', type: 'boolean', description: 'Do not verify TLS certificates at all; every report says so.' },
    ...reportOptions,
  ],
  details: [
    'Exit codes: 0 no error-level failure; 1 an error-level failure (with --strict, any failure);',
    '1 also when nothing could be verified (every request 401/403 or 404, no success answer to check);',
    '2 a usage error, or the deployment cannot be reached at all (nothing listening, a certificate that does not verify).',
    'Checks, severities and the spec line each enforces: docs/contract.md.',
  ].join('\n'),
  async run(values) {
    boundHeapGrowth();
    const baseUrl = stringOption(values, 'base-url');
    if (baseUrl === undefined) throw new UsageError('--base-url is required');
    await checkReportPaths(values);
    const strict = values.strict === true;
    const options = {
      baseUrl,
      ca: await caFile(stringOption(values, 'ca')),
      insecure: values.insecure === true,
      strict,
      humanEvaluationId: stringOption(values, 'human-evaluation-id'),
      createBody: await createBody(stringOption(values, 'create-body')),
      headers: headers(values),
      timeoutMs: integerOption(values, 'timeout', 1, 600_000),
      readOnly: values['read-only'] === true,
      examples: integerOption(values, 'examples', 0, 1_000_000),
      seed: stringOption(values, 'seed'),
      concurrency: integerOption(values, 'concurrency', 1, maxConcurrency),
      rateLimit: stringOption(values, 'rate-limit'),
    };
    let report;
    try {
      report = await runContract(options);
    } catch (error) {
      if (error instanceof ContractOptionError) throw new UsageError(error.message);
      throw error;
    }
    // The terminal report first: whatever happens to the files, it is never lost.
    await writeOut(terminalReport(report, terminalStyle(process.stdout)));
    return (await writeReports('contract', values, report)) ? exitCode(report, strict) : 2;
  },
};
