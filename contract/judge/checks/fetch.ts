import { defineCheck, finding, once } from '../define.js';
import { responseChecks, statusSuccess } from './response.js';

/** The checks of the fetch operation, in the catalogue's order. */
export const fetchChecks = [
  ...responseChecks('fetch'),
  statusSuccess(
    'fetch',
    'The given human evaluation id is answered with a 2xx.',
    '§4.1 "evaluation_id ... the identifier of the evaluation to fetch"',
  ),
  defineCheck({
    id: 'fetch.body.id',
    operation: 'fetch',
    severity: 'warning',
    title: 'The record answered is the one asked for (same id).',
    spec: '§4.1 "It is the identifier of the evaluation to fetch."',
    code: (seen) => {
      const { role } = seen.sent;
      const parsed = seen.sent.operation === 'fetch' ? seen.data() : undefined;
      if (!parsed || role.kind !== 'expected' || role.id === undefined) return undefined;
      const answered = (parsed.data as { id?: unknown } | null)?.id;
      if (typeof answered !== 'string') return undefined;
      return once(
        answered === role.id
          ? undefined
          : finding(`${seen.label} answered the record of another id, ${JSON.stringify(answered)}`),
      );
    },
  }),
  defineCheck({
    id: 'fetch.unknown-id.rejected',
    operation: 'fetch',
    severity: 'warning',
    title: 'An unknown id is not answered with a 2xx.',
    spec: '§4.1 "It is the identifier of the evaluation to fetch."',
    code: (seen) =>
      seen.sent.role.kind === 'unknown-id' && seen.complete
        ? once(
            seen.success
              ? finding(`${seen.label} answered ${seen.status}`, String(seen.status), seen.sent.role.shape)
              : undefined,
          )
        : undefined,
  }),
] as const;
