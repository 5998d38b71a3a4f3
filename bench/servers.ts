import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import express from 'express';
import { operationTable } from '../api/operations.js';

/**
 * The baselines, one per process: `node dist/bench/servers.js KIND PORT BODY_FILE` (the mock runs as `evalkit mock`).
 * - express: a bare Express route answering a pre-serialized HumanEvaluation, the way one would write it (res.send);
 * - http: a bare node:http server answering the same bytes: the floor of any Node server;
 * - stream: `stream PORT MIB` streams a JSON answer of MIB mebibytes, made as it is sent (the proxy's memory bench).
 * - drain: a bare node:http server that reads a request's body whole, then answers 422 with the given bytes: the floor
 *   of a round trip that uploads a body (bench/mock-abuse).
 */
const [kind, portText, bodyFile] = process.argv.slice(2);
const port = Number(portText);

async function start(): Promise<void> {
  if (kind === 'stream') {
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"padding":"');
      let left = Number(bodyFile);
      const more = () => {
        while (left > 0) {
          left--;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end('"}');
      };
      more();
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return;
  }
  const body = readFileSync(bodyFile as string);
  if (kind === 'express') {
    const app = express();
    // The fetch operation's path template in Express's words: `{evaluation_id}` becomes `:evaluation_id`.
    app.get(operationTable.fetchHumanEvaluation.path.replace(/\{(\w+)\}/g, ':$1'), (_req, res) => {
      res.type('application/json').send(body);
    });
    await new Promise<void>((resolve) => app.listen(port, '127.0.0.1', () => resolve()));
    return;
  }
  if (kind === 'http') {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return;
  }
  if (kind === 'drain') {
    const server = createServer((req, res) => {
      req.resume();
      req.once('end', () => {
        res.writeHead(422, { 'Content-Type': 'application/json', 'Content-Length': body.length });
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return;
  }
  throw new Error(`unknown server kind ${kind}`);
}

await start();
