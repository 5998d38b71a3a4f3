import type { ScenarioFileData } from '../core/scenario-book.js';

/** What the page is told by the mock, in its JSON config element. */
export interface DashboardConfig {
  /**
   * Each operation's id, label (operationLabel in api/operations.ts), method and path template, and where its success
   * answer keeps the state of the record it shows (lifecycleStates), for the list's state column.
   */
  operations: { id: string; label: string; method: string; path: string; statePointer?: string }[];
  /** Each scenario key's control: a list of its values, or free text the mock checks on PATCH. */
  controls: Record<string, readonly (string | number)[] | 'text'>;
  journalSize: number;
  /** The start-up scenario: any other one in force was set at run time, and the banner says so. */
  startup: ScenarioFileData;
}
