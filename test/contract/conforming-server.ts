import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generators, seedFrom } from '../../generators/index.js';
import { defaultHumanEvaluationId } from '../../contract/run/fetch.js';
import { pointerTokens } from '../../schemas/validators/json-pointer.js';
import { validate } from '../../schemas/validators/index.js';
import type { EvaluationState } from '../../generators/vocabulary.js';

/**
 * A deployment that keeps the contract, built from the generators, for the contract suite's own tests and bench:
 * GET echoes a known id and 404s others, POST answers one Evaluation per requested variant with the request's ids,
 * errors are FastAPI-shaped (422 with a `detail` list, 404 with a `detail` string). Behaviour hooks turn it into
 * each broken or conforming variant of the bank.
 */

type Route = 'fetch' | 'create' | 'other';

/** A create's references, and what the service calls each record in its 404. */
const heldRecords = {
  app_id: 'App',
  testset_id: 'Testset',
  variant_ids: 'Variant',
  evaluators_configs: 'Evaluator config',
};
type HeldField = keyof typeof heldRecords;

/** The 404 a deployment answers to a create naming a record it does not hold, or undefined when it holds all. */
function notHeld(request: Record<string, unknown>, holds: Behaviour['holds']): Answer | undefined {
  for (const [field, held] of Object.entries(holds ?? {}) as Array<[HeldField, string[]]>) {
    const named = ([] as unknown[]).concat(request[field]);
    if (named.some((id) => !held.includes(id as string)))
      return json(404, { detail: `${heldRecords[field]} not found` });
  }
  return undefined;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Context {
  route: Route;
  /** fetch: the id is known; create: the body is a valid request. */
  valid: boolean;
  id?: string;
  /** The parsed create request, when it parsed. */
  request?: Record<string, unknown>;
  /** A create's body as sent, and its Content-Type: what a deployment that validates otherwise reads. */
  sent?: { text: string; contentType?: string };
}

export interface Behaviour {
  /** Served under this path, e.g. `/api`. */
  basePath?: string;
  /** A header every request must carry, else 401. */
  auth?: { name: string; value: string };
  /** The state of created Evaluations; finished ones carry aggregated results. Default: EVALUATION_INITIALIZED. */
  evaluationState?: EvaluationState;
  /** Ids GET knows; default: the one the contract suite fetches by default. */
  knownIds?: string[];
  /**
   * The records a create may refer to, by field, as a real deployment holds only its own: a create naming another
   * answers 404 `{"detail": "App not found"}` (`Testset`, `Variant`, `Evaluator config`), as the service does.
   * Default: any id.
   */
  holds?: Partial<Record<HeldField, string[]>>;
  /** Rewrites the answer the conforming server would give. */
  rewrite?: (answer: Answer, context: Context) => Answer;
  /** Takes over the raw exchange before routing (hangs, drops, redirects); true when it did. */
  raw?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Takes over the answer after routing (truncation, huge bodies); true when it did. */
  send?: (res: ServerResponse, answer: Answer, context: Context) => boolean;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** A JSON answer, as the reference and its mutations send them. */
export const json = (status: number, body: unknown): Answer => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(''));
  });
}

function fetchAnswer(id: string, known: boolean): Answer {
  if (!known) return json(404, { detail: 'Evaluation not found' });
  return json(200, generators.HumanEvaluation(seedFrom('human', id), { id, status: 'EVALUATION_FINISHED' }));
}

/** FastAPI's 422: one `detail` entry per problem, located in the body. */
function unprocessable(loc: Array<string | number>, msg: string, type: string): Answer {
  return json(422, { detail: [{ loc: ['body', ...loc], msg, type }] });
}

function createAnswer(
  text: string,
  contentType: string | undefined,
  context: Context,
  { evaluationState: state = 'EVALUATION_INITIALIZED', holds }: Behaviour,
): Answer {
  if (!contentType?.toLowerCase().startsWith('application/json'))
    return unprocessable([], 'value is not a valid dict', 'type_error.dict');
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch {
    return unprocessable([0], 'Expecting value', 'value_error.jsondecode');
  }
  const { issues } = validate('CreateEvaluationRequest', request);
  if (request && typeof request === 'object' && !Array.isArray(request))
    context.request = request as Record<string, unknown>;
  const [issue] = issues;
  if (issue) return unprocessable(pointerTokens(issue.pointer), issue.message, `value_error.${issue.keyword}`);
  const missing = notHeld(request as Record<string, unknown>, holds);
  if (missing) return missing;
  context.valid = true;
  const body = request as { app_id: string; testset_id: string; variant_ids: string[]; evaluators_configs: string[] };
  return json(
    200,
    body.variant_ids.map((variantId, index) =>
      generators.Evaluation(seedFrom('evaluation', text, index), {
        state,
        appId: body.app_id,
        testsetId: body.testset_id,
        variantId,
        evaluatorConfigIds: body.evaluators_configs,
      }),
    ),
  );
}

async function route(
  req: IncomingMessage,
  behaviour: Behaviour,
  known: Set<string>,
): Promise<{ answer: Answer; context: Context }> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const base = behaviour.basePath ?? '';
  const path = url.pathname.startsWith(base) ? url.pathname.slice(base.length).replace(/\/$/, '') : '';
  const fetchMatch = /^\/human-evaluations\/([^/]+)$/.exec(path);
  const text = await readBody(req);
  if (behaviour.auth && req.headers[behaviour.auth.name.toLowerCase()] !== behaviour.auth.value) {
    return { answer: json(401, { detail: 'Not authenticated' }), context: { route: 'other', valid: false } };
  }
  if (req.method === 'GET' && fetchMatch) {
    const id = decodeURIComponent(fetchMatch[1] as string);
    const context: Context = { route: 'fetch', valid: known.has(id), id };
    return { answer: fetchAnswer(id, context.valid), context };
  }
  if (req.method === 'POST' && path === '/evaluations') {
    const contentType = req.headers['content-type'];
    const context: Context = { route: 'create', valid: false, sent: { text, ...(contentType && { contentType }) } };
    return {
      answer: createAnswer(text, req.headers['content-type'], context, behaviour),
      context,
    };
  }
  return { answer: json(404, { detail: 'Not Found' }), context: { route: 'other', valid: false } };
}

export async function startConformingServer(behaviour: Behaviour = {}): Promise<RunningServer> {
  const known = new Set(behaviour.knownIds ?? [defaultHumanEvaluationId]);
  const server: Server = createServer((req, res) => {
    res.on('error', () => undefined);
    if (behaviour.raw?.(req, res)) return;
    void route(req, behaviour, known).then(({ answer, context }) => {
      const final = behaviour.rewrite ? behaviour.rewrite(answer, context) : answer;
      if (behaviour.send?.(res, final, context)) return;
      res.writeHead(final.status, final.headers).end(final.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${behaviour.basePath ?? ''}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
