import {
  ContractOptionError,
  exitCode,
  maxConcurrency,
  runContract,
  terminalReport,
  terminalStyle,
  type DeploymentRecords,
} from '../../contract/index.js';
import { excessiveNesting } from '../../http/json-body.js';
import { integerOption, stringOption, UsageError, type OptionValues, type RunCommand } from '../command.js';
import { readGivenFile } from '../given-file.js';
import { headers } from '../headers.js';
import { boundHeapGrowth } from '../heap-growth.js';
import { writeOut } from '../output.js';
import { minCoverage } from '../report-options.js';
import { checkReportPaths, writeReports } from '../reports.js';
import { trafficOption } from '../traffic-option.js';
import { compareMockOptions } from '../compare-mock.js';
import { acceptedIds } from '../ignore-file.js';
import { maxTimeoutMs } from '../../http/timeouts.js';

async function createBody(file: string | undefined): Promise<Record<string, unknown> | undefined> {
  if (file === undefined) return undefined;
  const text = await readGivenFile(file, '--create-body');
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

/** The deployment's own records the flags give: an id it holds, a create request valid there. */
async function deploymentRecords(values: OptionValues): Promise<DeploymentRecords> {
  const heldId = stringOption(values, 'human-evaluation-id');
  const validBody = await createBody(stringOption(values, 'create-body'));
  return {
    ...(heldId !== undefined && { fetchHumanEvaluation: heldId }),
    ...(validBody !== undefined && { createEvaluations: validBody }),
  };
}

/** PEM CA certificates for --ca. */
async function caFile(file: string | undefined): Promise<string | undefined> {
  if (file === undefined) return undefined;
  const text = await readGivenFile(file, '--ca');
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw new UsageError(`--ca ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return text;
}

/** `evalkit contract`: the suite against a deployment, its terminal report, then the report files asked for. */
export const run: RunCommand = async (values, io) => {
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
    minCoverage: minCoverage(values),
    deployment: await deploymentRecords(values),
    headers: headers(values),
    timeoutMs: integerOption(values, 'timeout', 1, maxTimeoutMs),
    readOnly: values['read-only'] === true,
    examples: integerOption(values, 'examples', 0, 1_000_000),
    seed: stringOption(values, 'seed'),
    concurrency: integerOption(values, 'concurrency', 1, maxConcurrency),
    rateLimit: stringOption(values, 'rate-limit'),
    // The recorded requests --replay sends instead of generated ones.
    replay: await trafficOption(values, 'replay'),
    compareMock: compareMockOptions(values, baseUrl),
    // Findings and, with --compare-mock, differences the team accepts: one file serves both, and `proxy` too.
    accepted: await acceptedIds(values),
  };
  let report;
  try {
    report = await runContract(options);
  } catch (error) {
    if (error instanceof ContractOptionError) throw new UsageError(error.message);
    throw error;
  }
  // The terminal report first: whatever happens to the files, it is never lost.
  await writeOut(io.stdout, terminalReport(report, terminalStyle(io.stdout, io.env)));
  return (await writeReports('contract', values, report, io)) ? exitCode(report, strict) : 2;
};
