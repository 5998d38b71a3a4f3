import { constants } from 'node:fs';
import { access, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { excessiveNesting } from '../../contract/json-body.js';
import { ContractOptionError, exitCode, jsonReport, junitReport, runContract, terminalReport, terminalStyle } from '../../contract/index.js';
import { integerOption, stringOption, UsageError, type Command, type OptionValues } from '../command.js';
import { writeOut } from '../output.js';

/** `Name: value` pairs; a malformed one is a usage error that names the header but never prints its value. */
function headers(values: OptionValues): Record<string, string> {
  const raw = values.header;
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
  const out: Record<string, string> = {};
  for (const entry of list) {
    const colon = entry.indexOf(':');
    const name = colon > 0 ? entry.slice(0, colon).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--header must be "Name: value" with a valid header name (got one starting ${JSON.stringify(entry.slice(0, Math.max(colon, 0)).slice(0, 20))})`);
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
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new UsageError(`--create-body ${file} must hold a JSON object`);
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
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new UsageError(`--ca ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return text;
}

/** A report path that cannot be written is a usage error found before any request goes out, not after the run. */
async function writableReportPath(file: string | undefined, option: string): Promise<string | undefined> {
  if (file === undefined) return undefined;
  const fail = (reason: string) => new UsageError(`--${option} cannot write ${file} (${reason})`);
  const existing = await stat(file).catch(() => undefined);
  if (existing?.isDirectory()) throw fail('it is a directory');
  try {
    await access(existing ? file : dirname(file), constants.W_OK);
  } catch (error) {
    throw fail((error as NodeJS.ErrnoException).code ?? 'error');
  }
  return file;
}

async function writeReport(file: string | undefined, content: () => string, option: string): Promise<boolean> {
  if (file === undefined) return true;
  try {
    await writeFile(file, content());
    return true;
  } catch (error) {
    process.stderr.write(`evalkit contract: --${option} cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})\n`);
    return false;
  }
}

export const contractCommand: Command = {
  name: 'contract',
  summary: 'Check a deployment at a base URL against the contract: every violation caught, no false alarms.',
  options: [
    { name: 'base-url', type: 'string', value: 'URL', description: 'The deployment, may carry a path (https://host/api). Required.' },
    { name: 'human-evaluation-id', type: 'string', value: 'ID', description: 'An id that exists there.', defaultText: "the schema example's id, which mocks serve" },
    { name: 'create-body', type: 'string', value: 'FILE', description: 'A JSON create request valid for that deployment (real ids). Its lm_providers_keys values are replaced by canaries.', defaultText: 'a generated one' },
    { name: 'header', type: 'string', value: '"Name: value"', multiple: true, description: 'Sent with every request (auth); never printed.' },
    { name: 'timeout', type: 'string', value: 'MS', description: 'Timeout per request.', defaultText: '10000' },
    { name: 'strict', type: 'boolean', description: 'Exit 1 on any failed check, warnings included.' },
    { name: 'read-only', type: 'boolean', description: 'Send nothing that could create data: GETs and one malformed-JSON POST only.' },
    { name: 'examples', type: 'string', value: 'N', description: 'Property-based create requests (half valid, half invalid), failures shrunk and printed as curl.', defaultText: '0' },
    { name: 'seed', type: 'string', value: 'S', description: 'Seed of generated bodies, canaries and properties.', defaultText: '1' },
    { name: 'report-json', type: 'string', value: 'FILE', description: 'Write the JSON report to FILE.' },
    { name: 'report-junit', type: 'string', value: 'FILE', description: 'Write a JUnit XML report to FILE.' },
    { name: 'ca', type: 'string', value: 'FILE', description: 'Trust the CA certificates in this PEM file (a self-signed or private CA).' },
    { name: 'insecure', type: 'boolean', description: 'Do not verify TLS certificates at all; every report says so.' },
  ],
  details: [
    'Exit codes: 0 no error-level failure; 1 an error-level failure (with --strict, any failure);',
    '1 also when nothing could be verified (every request 401/403 or 404, no success answer to check);',
    '2 a usage error, or the deployment cannot be reached at all (nothing listening, a certificate that does not verify).',
    'Checks, severities and the spec line each enforces: docs/contract.md.',
  ].join('\n'),
  async run(values) {
    const baseUrl = stringOption(values, 'base-url');
    if (baseUrl === undefined) throw new UsageError('--base-url is required');
    const reportJson = await writableReportPath(stringOption(values, 'report-json'), 'report-json');
    const reportJunit = await writableReportPath(stringOption(values, 'report-junit'), 'report-junit');
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
    const written = [await writeReport(reportJson, () => jsonReport(report), 'report-json'), await writeReport(reportJunit, () => junitReport(report), 'report-junit')];
    return written.every(Boolean) ? exitCode(report, strict) : 2;
  },
};
