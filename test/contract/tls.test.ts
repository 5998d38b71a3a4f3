import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runContract } from '../../contract/index.js';
import { junitReport } from '../../contract/report/junit.js';
import { terminalReport } from '../../contract/report/terminal.js';
import { runCli } from '../helpers/cli.js';

/** Certificates made by openssl for this run: a CA, and leaves that fail verification each in one way. */
const dir = mkdtempSync(join(tmpdir(), 'evalkit-tls-'));
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
const file = (name: string) => readFileSync(join(dir, name), 'utf8');

function leaf(name: string, san: string, days: string): void {
  openssl(
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    '/CN=evalkit',
  );
  writeFileSync(join(dir, `${name}.ext`), `subjectAltName=${san}\n`);
  openssl(
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    `${name}.pem`,
    '-days',
    days,
    '-extfile',
    `${name}.ext`,
  );
}

const servers: Server[] = [];
async function serve(name: string): Promise<string> {
  const server = createServer({ key: file(`${name}.key`), cert: file(`${name}.pem`) }, (_req, res) =>
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}'),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const urls: Record<string, string> = {};

/** A self-signed certificate and its key, `NAME.pem` and `NAME.key`, valid for two days. */
function selfSigned(name: string, subject: string, ...extensions: string[]): void {
  openssl(
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
    ...['-keyout', `${name}.key`, '-out', `${name}.pem`, '-days', '2', '-subj', subject, ...extensions],
  );
}

beforeAll(async () => {
  selfSigned('ca', '/CN=evalkit test CA');
  selfSigned('self', '/CN=evalkit', '-addext', 'subjectAltName=IP:127.0.0.1');
  leaf('good', 'IP:127.0.0.1', '2');
  leaf('expired', 'IP:127.0.0.1', '-1');
  leaf('otherhost', 'DNS:other.example', '2');
  for (const name of ['self', 'good', 'expired', 'otherhost']) urls[name] = await serve(name);
});

afterAll(async () => {
  await Promise.all(
    servers.map((server) => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve)))),
  );
  rmSync(dir, { recursive: true, force: true });
});

describe('TLS certificates', () => {
  it.each([
    ['self', undefined, /DEPTH_ZERO_SELF_SIGNED_CERT\): the certificate is self-signed: pass its PEM with --ca FILE/],
    [
      'good',
      undefined,
      new RegExp(
        String.raw`UNABLE_TO_VERIFY_LEAF_SIGNATURE\): ` +
          String.raw`the certificate was issued by an unknown CA: pass the CA's PEM with --ca FILE`,
      ),
    ],
    ['expired', 'ca.pem', /CERT_HAS_EXPIRED\): the certificate has expired/],
    ['otherhost', 'ca.pem', /ERR_TLS_CERT_ALTNAME_INVALID\): the certificate does not name this host/],
  ])('names a %s certificate and the fix, instead of a dropped connection', async (name, ca, message) => {
    const report = await runContract({ baseUrl: urls[name] as string, ca: ca ? file(ca) : undefined });
    expect(report.reachable).toBe(false);
    expect(report.stopped).toMatch(message);
    expect(report.stopped).toMatch(/or --insecure to skip verification/);
  });

  it('verifies against --ca, and with --insecure says so in every report', async () => {
    const trusted = await runContract({ baseUrl: urls.good as string, ca: file('ca.pem') });
    expect(trusted.reachable).toBe(true);
    expect(trusted.insecure).toBe(false);
    const insecure = await runContract({ baseUrl: urls.self as string, insecure: true });
    expect(insecure.reachable).toBe(true);
    expect(insecure.insecure).toBe(true);
    expect(terminalReport(insecure, { colour: false })).toMatch(/^INSECURE: TLS certificates were NOT verified/m);
    expect(junitReport(insecure)).toContain(
      '<property name="insecure" value="certificates were NOT verified (--insecure)"/>',
    );
  });

  it('takes --ca FILE and --insecure on the command line', async () => {
    const json = join(dir, 'report.json');
    const withCa = await runCli([
      'contract',
      '--base-url',
      urls.good as string,
      '--ca',
      join(dir, 'ca.pem'),
      '--report-json',
      json,
    ]);
    expect(withCa.stdout).not.toMatch(/certificate/);
    expect(JSON.parse(file('report.json')).insecure).toBe(false);
    const insecure = await runCli(['contract', '--base-url', urls.self as string, '--insecure', '--report-json', json]);
    expect(insecure.stdout).toMatch(/INSECURE/);
    expect(JSON.parse(file('report.json')).insecure).toBe(true);
    const notPem = await runCli(['contract', '--base-url', urls.good as string, '--ca', join(dir, 'good.ext')]);
    expect(notPem.code).toBe(2);
    expect(notPem.stderr).toMatch(/--ca .* holds no PEM certificate/);
  });
});
