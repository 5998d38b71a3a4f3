import { ContractOptionError, exitCode, terminalReport, terminalStyle } from '../../contract/index.js';
import {
  startContractProxy,
  trafficLine,
  violationLines,
  type Judgement,
  type RecordingEvent,
} from '../../proxy/index.js';
import { integerOption, stringOption, UsageError, type Command } from '../command.js';
import { writeOut } from '../output.js';
import { checkReportPaths, reportOptions, writeReports } from '../reports.js';
import { listenFailure } from '../listen-failure.js';
import { shutdownSignal } from '../shutdown.js';
import { headers } from './contract.js';

export const proxyCommand: Command = {
  name: 'proxy',
  summary:
    'Sit in front of a deployment, forward all traffic unchanged, check every exchange against the contract, record fixtures.',
  options: [
    {
      name: 'target',
      type: 'string',
      value: 'URL',
      description:
        'The deployment, may carry a base path (https://host/api): a request for /x goes to URL/x. Required.',
    },
    {
      name: 'port',
      type: 'string',
      value: 'N',
      description: 'Port to listen on; 0 picks a free one.',
      defaultText: '4011',
    },
    { name: 'host', type: 'string', value: 'HOST', description: 'Interface to listen on.', defaultText: '127.0.0.1' },
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
        'Write each valid 200 answer of GET /human-evaluations/{id} as DIR/human-evaluations/<id>.json (for evalkit mock --fixtures DIR).',
    },
    {
      name: 'timeout',
      type: 'string',
      value: 'MS',
      description: 'No byte from the target for this long: 504 (or a cut answer) and a transport error.',
      defaultText: '10000',
    },
    { name: 'strict', type: 'boolean', description: 'Exit 1 on any failed check, warnings included.' },
    ...reportOptions,
  ],
  details: [
    'Violations print as they happen; the report is written when the proxy stops (Ctrl-C / SIGINT, or SIGTERM).',
    'Exit codes as for contract: 0 no error-level failure; 1 an error-level failure (with --strict, any);',
    '1 also when nothing was verified (no traffic, or no success answer of the two operations to check);',
    '2 a usage error, a report that cannot be written, or no request ever reached the target.',
  ].join('\n'),
  async run(values) {
    const target = stringOption(values, 'target');
    if (target === undefined) throw new UsageError('--target is required');
    await checkReportPaths(values);
    const strict = values.strict === true;
    const style = terminalStyle(process.stdout);
    const record = stringOption(values, 'record');
    const options = {
      target,
      port: integerOption(values, 'port', 0, 65535) ?? 4011,
      host: stringOption(values, 'host') ?? '127.0.0.1',
      headers: headers(values),
      ...(record !== undefined ? { recordDir: record } : {}),
      timeoutMs: integerOption(values, 'timeout', 1, 600_000),
      strict,
      onJudgement: (judgement: Judgement) => {
        for (const line of violationLines(judgement, style)) void writeOut(`${line}\n`);
      },
      onRecording: (event: RecordingEvent) => {
        void writeOut(
          'recorded' in event ? `recorded ${event.recorded}\n` : `not recorded: ${event.label}: ${event.refused}\n`,
        );
      },
    };
    let proxy;
    try {
      proxy = await startContractProxy(options);
    } catch (error) {
      if (error instanceof ContractOptionError) throw new UsageError(error.message);
      const failure = listenFailure(error, options.host, options.port);
      if (failure !== undefined) throw new UsageError(failure);
      const code = (error as NodeJS.ErrnoException).code;
      if (record !== undefined && code !== undefined)
        throw new UsageError(`--record cannot create ${record}/human-evaluations (${code})`);
      throw error;
    }
    const stopping = shutdownSignal();
    await writeOut(`evalkit proxy listening on ${proxy.url}, forwarding to ${proxy.report().target}\n`);
    const signal = await stopping;
    await proxy.close();
    const report = proxy.report();
    await writeOut(
      `\nevalkit proxy stopped (${signal}): ${trafficLine(proxy.traffic(), proxy.judge)}\n\n${terminalReport(report, style)}`,
    );
    return (await writeReports('proxy', values, report)) ? exitCode(report, strict) : 2;
  },
};
