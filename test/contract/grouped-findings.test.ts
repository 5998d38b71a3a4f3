import { afterAll, describe, expect, it } from 'vitest';
import { htmlReport, runContract, terminalReport } from '../../contract/index.js';
import { startConformingServer, type RunningServer } from './conforming-server.js';

const servers: RunningServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

/** A deployment whose every answer is a 500: one cause shared by dozens of probes, as a broken database gives. */
async function failingEverything() {
  const server = await startConformingServer({
    raw: (_req, res) => (res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error'), true),
  });
  servers.push(server);
  return runContract({ baseUrl: server.url });
}

describe('a cause many requests share, as the reports show it', () => {
  it('the terminal lists its requests one per short line, under the cause, with how many more', async () => {
    const report = await failingEverything();
    const check = report.checks.find((candidate) => candidate.id === 'create.status.5xx');
    const shared = check?.views?.find((view) => view.requests !== undefined);
    expect(shared?.requests?.length).toBeGreaterThan(10);
    const lines = terminalReport(report, { colour: false }).split('\n');
    const listed = lines.filter((line) => line.startsWith('         - POST /evaluations (probe: '));
    expect(listed).toEqual(shared?.requests?.map((request) => `         - ${request}`));
    expect(lines).toContain(`         and ${shared?.moreRequests} more`);
    // The one long line a failed check may have is its curl; no finding line runs on.
    const findingLines = lines.filter((line) => line.startsWith('       ') && !line.includes('reproduce: curl'));
    expect(findingLines.filter((line) => line.length > 200)).toEqual([]);
  });

  it('the HTML page names each of its requests once', async () => {
    const report = await failingEverything();
    const html = htmlReport(report);
    const check = report.checks.find((candidate) => candidate.id === 'create.status.5xx');
    const requests = check?.views?.flatMap((view) => view.requests ?? []) ?? [];
    expect(requests.length).toBeGreaterThan(10);
    for (const request of requests) expect(html.split(request.replace(/&/g, '&amp;')).length - 1, request).toBe(1);
  });
});
