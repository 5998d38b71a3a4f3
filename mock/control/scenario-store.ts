import { ScenarioBook, type ScenarioFileData, type ScenarioHolder } from '../core/scenario-book.js';

/**
 * The server scenario at run time: read, replaced and restored by the control room. It swaps the whole book in the
 * core's holder, so a request is answered by the old scenario or the new one, never a mix. Framework-free.
 */
export class ScenarioStore {
  private readonly startup: ScenarioBook;

  constructor(private readonly holder: ScenarioHolder) {
    this.startup = holder.current;
  }

  /** The scenario in force, in the `--scenarios` file's shape (flags folded into its `scenario` section). */
  current(): ScenarioFileData {
    return this.holder.current.toData();
  }

  /** Puts a scenario config in force. Throws a ScenarioError naming the entry at fault, and then keeps the old one. */
  replace(data: unknown): ScenarioFileData {
    this.holder.current = ScenarioBook.fromData(data);
    return this.current();
  }

  /** Puts the start-up scenario (flags and `--scenarios` file) back in force. */
  restore(): ScenarioFileData {
    this.holder.current = this.startup;
    return this.current();
  }
}
