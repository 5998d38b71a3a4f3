import { shellQuote } from '../../http/shell.js';
import { eraNames, type EraName } from '../../generators/vocabulary.js';

/**
 * The mock's settings that shape what a frontend sees where the spec is silent (`evalkit mock`'s flags of the same
 * names): the release era (state on create, id style), its date forms, and null for absent optional fields.
 */
export interface MockSettings {
  era?: EraName;
  eraDates?: boolean;
  nullable?: boolean;
}

/**
 * Every combination of the settings the mock accepts (`eraDates` only with an era), simplest first: fewest flags, an
 * era before `nullable` among as many, eras in release order. Among equally close settings the first is suggested.
 */
export function candidateSettings(): MockSettings[] {
  const eras: MockSettings[] = [
    {},
    ...eraNames.map((era) => ({ era })),
    ...eraNames.map((era) => ({ era, eraDates: true })),
  ];
  const all = [false, true].flatMap((nullable) => eras.map((era) => (nullable ? { ...era, nullable } : era)));
  // Array.prototype.sort is stable: among as many flags, the order built above stays.
  return all.sort((one, other) => flagCount(one) - flagCount(other));
}

const flagCount = ({ era, eraDates, nullable }: MockSettings) => [era, eraDates, nullable].filter(Boolean).length;

/** The flags of `evalkit mock` for these settings, e.g. `--era 0.17 --era-dates --nullable`. */
function settingsFlags(settings: MockSettings): string[] {
  return [
    ...(settings.era ? ['--era', settings.era] : []),
    ...(settings.eraDates ? ['--era-dates'] : []),
    ...(settings.nullable ? ['--nullable'] : []),
  ];
}

/** Where the compared mock also took its settings from, for the command line that starts it. */
export interface MockSource {
  /** A `--scenarios` file, as the user named it. */
  scenariosFile?: string;
  /** The deployment's base path, e.g. `/api`, so the suggested mock serves where the app calls. */
  basePath?: string;
}

/** A ready command line: `evalkit mock --base-path /api --era 0.17 --era-dates`, each value quoted for a shell. */
export function mockCommandLine(settings: MockSettings, source: MockSource = {}): string {
  const words = [
    'evalkit',
    'mock',
    ...(source.basePath ? ['--base-path', source.basePath] : []),
    ...(source.scenariosFile ? ['--scenarios', source.scenariosFile] : []),
    ...settingsFlags(settings),
  ];
  return words.map((word) => (/^[A-Za-z0-9._/=-]+$/.test(word) ? word : shellQuote(word))).join(' ');
}

/** Whether two settings are the same, absent flags read as off. */
export function sameSettings(one: MockSettings, other: MockSettings): boolean {
  return (
    one.era === other.era &&
    (one.eraDates ?? false) === (other.eraDates ?? false) &&
    !!one.nullable === !!other.nullable
  );
}
