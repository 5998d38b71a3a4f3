// The layer rules of ARCHITECTURE.md, enforced: each zone lists what its files may not import.
import tseslint from 'typescript-eslint';

const nodeBuiltin = {
  regex: '^node:',
  message: 'browser-ready code: no Node built-in (schemas, api, generators and the mock core run in a browser bundle)',
};
const above = (layer, ...names) => ({
  regex: `(^|/)(${names.join('|')})/`,
  message: `${layer} may not import ${names.join(', ')}: see ARCHITECTURE.md`,
});

/** One zone: files and the import patterns they may not use. */
const zone = (files, ...patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

/**
 * A zone inside another. ESLint gives a file the last matching zone's rule whole (a later zone replaces an earlier
 * one, it does not add to it), so an inner zone is built from its parent's patterns and its own: never restated by
 * hand, where one left out would silently lift a rule for the inner folder.
 */
const within = (parent, files, ...patterns) =>
  zone(files, ...parent.rules['no-restricted-imports'][1].patterns, ...patterns);

const mock = zone(['mock/**'], above('mock', 'contract', 'proxy', 'diff', 'cli'));
const contract = zone(['contract/**'], above('contract', 'mock', 'proxy', 'diff', 'cli'));

export default [
  // Generated text (npm run dashboard), checked by a test against what renders it, as schemas/types is.
  { ignores: ['dist/**', 'node_modules/**', 'reports/**', 'tmp/**', 'mock/control/dashboard-page-script.ts'] },
  {
    files: ['**/*.ts', '**/*.mts', '**/*.js', '**/*.mjs'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
    rules: {
      'max-len': ['error', { code: 120, ignoreUrls: false, ignoreStrings: false, ignoreTemplateLiterals: false }],
    },
  },
  zone(
    ['schemas/**'],
    nodeBuiltin,
    above('schemas', 'api', 'http', 'generators', 'mock', 'contract', 'proxy', 'diff', 'cli'),
  ),
  zone(['api/**'], nodeBuiltin, above('api', 'http', 'generators', 'mock', 'contract', 'proxy', 'diff', 'cli')),
  zone(['http/**'], above('http', 'generators', 'mock', 'contract', 'proxy', 'diff', 'cli')),
  zone(['generators/**'], nodeBuiltin, above('generators', 'mock', 'contract', 'proxy', 'diff', 'cli')),
  mock,
  within(mock, ['mock/core/**'], nodeBuiltin, {
    regex: '(^|/)(node|msw|fetch|control)/',
    message: 'the mock core imports no adapter: adapters wrap the core',
  }),
  within(mock, ['mock/control/**'], nodeBuiltin, {
    regex: '(^|/)(node|msw|fetch)/',
    message: 'the control room works on the core currency, wherever the core runs: it imports no adapter',
  }),
  contract,
  within(contract, ['contract/judge/**'], {
    regex: '(^|/)(run|report)/',
    message: 'the judge imports neither run nor report: judging is apart from sending and from telling',
  }),
  within(contract, ['contract/compare/**'], {
    regex: '(^|/)(run|report)/',
    message: 'the comparison with the mock is pure: two answers in, differences out; it imports neither run nor report',
  }),
  within(contract, ['contract/report/**'], {
    regex: '(^|/)run/',
    message: 'a report writer never imports the run: it writes the report model it is given',
  }),
  zone(['diff/**'], above('diff', 'generators', 'mock', 'contract', 'proxy', 'cli')),
  zone(['proxy/**'], above('proxy', 'mock', 'diff', 'cli'), {
    regex: '(^|/)contract/run/',
    message: 'the proxy judges exchanges, it never runs the suite',
  }),
  // The package's faces (package.json exports) gather what their users import, across layers; only cli is above them.
  zone(['index.ts', 'contract/index.ts'], above('a package entry', 'cli')),
];
