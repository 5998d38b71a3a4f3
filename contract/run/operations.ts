import { operationIds, type OperationId } from '../../api/operations.js';
import type { Verdicts } from '../judge/verdicts.js';
import type { Counterexample } from '../report/model.js';
import { createValid, tryOtherKeyNames } from './create.js';
import { heldIdInPath, heldReferencesInBody, type DeploymentRecords, type Substitution } from './deployment-records.js';
import { defaultHumanEvaluationId, fetchGivenId, fetchUnknownIds } from './fetch.js';
import { runProbes, type Probe } from './probes.js';
import { propertyChecks, runProperties } from './properties.js';
import type { Session } from './session.js';

/** What an operation's part of a run reads: the run's settings, its session, and what it was given or derived. */
export interface RunContext {
  session: Session;
  verdicts: Verdicts;
  seed: string;
  readOnly: boolean;
  /** Property-based create requests to send (`--examples`). */
  examples: number;
  deployment: DeploymentRecords;
  /** The valid create request, canaries in place of the user's keys. */
  request: Record<string, unknown>;
  probes: Probe[];
}

/**
 * An operation's part of a run, one object per operation: a new operation owes its part here (a compile error), where
 * a run that only named the two it knew sent the new one nothing, its checks skipped as reaching no answer.
 */
export interface RunOperation {
  /** The flag that gives the run the deployment's own record for it, named in every remedy that asks for one. */
  recordFlag: string;
  /** `--replay`: which of the deployment's records its recorded request takes in place of the mock's. */
  substitute: Substitution;
  /**
   * Sent first, each operation in the table's order and each alone, so a deployment that is not there stops the run
   * after one request: what the deployment holds read, records made. Gives the ids of the records known after it.
   */
  reach(run: RunContext): Promise<string[]>;
  /** Once every operation has reached the deployment, with every id known: records that cannot exist asked for. */
  explore?(run: RunContext, knownIds: readonly string[]): Promise<void>;
  /** Last, after the states are asked for: requests the deployment must refuse, and the property cases. */
  refuse?(run: RunContext, found: Counterexample[]): Promise<void>;
}

/** The id the run reads: the deployment's own when given, else the schema's example, which mocks serve. */
export function heldId(run: Pick<RunContext, 'deployment'>): { id: string; given: boolean } {
  const given = run.deployment.fetchHumanEvaluation;
  return given === undefined ? { id: defaultHumanEvaluationId, given: false } : { id: given, given: true };
}

/** The valid create request and, when it is accepted, the same with other key names; the ids it created. */
async function createSteps({ readOnly, session, request, verdicts, deployment }: RunContext): Promise<string[]> {
  if (readOnly) return [];
  const created = await createValid(session, request, deployment.createEvaluations !== undefined);
  if (created.accepted) await tryOtherKeyNames(session, request);
  else
    verdicts.skip(
      'create.provider-keys.accepted',
      'the create request was not accepted: nothing to compare other key names with',
    );
  return created.ids;
}

/**
 * The probes, sent once the valid create has been answered, never beside it (runProbes): a deployment whose state the
 * create changes meets every probe in one state, whatever the timing. Then the property cases, or why they are skipped.
 */
async function refusalSteps(run: RunContext, found: Counterexample[]): Promise<void> {
  const { session, readOnly, examples, seed, verdicts } = run;
  await runProbes(session, run.probes);
  if (examples > 0 && !readOnly) return runProperties(session, { examples, seed }, found);
  const reason = readOnly
    ? '--read-only: property-based create requests could create data'
    : 'not run: pass --examples N';
  for (const id of propertyChecks) verdicts.skip(id, reason);
}

export const runOperations: { readonly [K in OperationId]: RunOperation } = {
  fetchHumanEvaluation: {
    recordFlag: '--human-evaluation-id',
    substitute: heldIdInPath,
    async reach(run) {
      const { id, given } = heldId(run);
      await fetchGivenId(run.session, id, given);
      return given ? [id] : [];
    },
    // The unknown ids depend on the known ids' shape: sent once those are known.
    explore: (run, knownIds) => fetchUnknownIds(run.session, knownIds, run.seed),
  },
  createEvaluations: {
    recordFlag: '--create-body',
    substitute: heldReferencesInBody,
    reach: createSteps,
    refuse: refusalSteps,
  },
};

/** The flags that give a run the deployment's records, in the table's order. */
export const recordFlags = operationIds.map((id) => runOperations[id].recordFlag);
