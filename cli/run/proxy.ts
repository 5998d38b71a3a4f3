import { recordFolder } from '../../api/operations.js';
import { ContractOptionError, exitCode, terminalReport, terminalStyle } from '../../contract/index.js';
import {
  startContractProxy,
  trafficLine,
  violationLines,
  type Judgement,
  type RecordingEvent,
} from '../../proxy/index.js';
import { CommandFailure, integerOption, stringOption, UsageError, type RunCommand } from '../command.js';
import { headers } from '../headers.js';
import { acceptedIds } from '../ignore-file.js';
import { listenFailure } from '../listen-failure.js';
import { listenAddress } from '../listen-options.js';
import { writeOut } from '../output.js';
import { minCoverage } from '../report-options.js';
import { pseudonymizerOf } from '../pseudonymizer-option.js';
import { checkReportPaths, writeReports } from '../reports.js';
import { defaultProxyHost, defaultProxyPort } from '../../proxy/defaults.js';
import { maxTimeoutMs } from '../../http/timeouts.js';
import { FolderProblem } from '../../http/folder-files.js';

/** `evalkit proxy`: forwards and judges traffic until SIGINT or SIGTERM, then reports. */
export const run: RunCommand = async (values, io) => {
  const target = stringOption(values, 'target');
  if (target === undefined) throw new UsageError('--target is required');
  await checkReportPaths(values);
  const strict = values.strict === true;
  const style = terminalStyle(io.stdout, io.env);
  const record = stringOption(values, 'record');
  if (values.pseudonymize === true && record === undefined)
    throw new UsageError('--pseudonymize rewrites what --record writes: add --record DIR');
  const pseudonymizer = await pseudonymizerOf(
    values,
    io,
    record === undefined ? undefined : { option: '--record', dir: record },
  );
  const options = {
    target,
    ...listenAddress(values, { port: defaultProxyPort, host: defaultProxyHost }),
    headers: headers(values),
    ...(record !== undefined ? { recordDir: record } : {}),
    ...(pseudonymizer !== undefined ? { pseudonymizer } : {}),
    timeoutMs: integerOption(values, 'timeout', 1, maxTimeoutMs),
    strict,
    minCoverage: minCoverage(values),
    accepted: await acceptedIds(values),
    onJudgement: (judgement: Judgement) => {
      for (const line of violationLines(judgement, style)) void writeOut(io.stdout, `${line}\n`);
    },
    onRecording: (event: RecordingEvent) => {
      void writeOut(
        io.stdout,
        'recorded' in event ? `recorded ${event.recorded}\n` : `not recorded: ${event.label}: ${event.refused}\n`,
      );
    },
  };
  let proxy;
  try {
    proxy = await startContractProxy(options);
  } catch (error) {
    if (error instanceof ContractOptionError) throw new UsageError(error.message);
    if (error instanceof FolderProblem) throw new UsageError(`--record: ${error.message}`);
    const failure = listenFailure(error, options.host, options.port);
    if (failure !== undefined) throw new CommandFailure(failure);
    const code = (error as NodeJS.ErrnoException).code;
    if (record !== undefined && code !== undefined)
      throw new UsageError(`--record cannot create ${record}/${recordFolder} (${code})`);
    throw error;
  }
  const stopping = io.untilShutdown();
  await writeOut(io.stdout, `evalkit proxy listening on ${proxy.url}, forwarding to ${proxy.report().target}\n`);
  const signal = await stopping;
  await proxy.close();
  const report = proxy.report();
  await writeOut(
    io.stdout,
    `\nevalkit proxy stopped (${signal}): ${trafficLine(proxy.traffic(), proxy.judge)}\n\n` +
      terminalReport(report, style),
  );
  return (await writeReports('proxy', values, report, io)) ? exitCode(report, strict) : 2;
};
