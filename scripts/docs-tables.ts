import { optionLabel, type Command } from '../cli/command.js';
import { contractCommand } from '../cli/commands/contract.js';
import { mockCommand } from '../cli/commands/mock.js';
import { catalogue, operations } from '../contract/judge/catalogue.js';
import { conforming, mutations, type BankEntry } from '../test/contract/bank.js';

/**
 * The tables of the docs that restate code, rendered from it: the check catalogue and the bank of broken servers. A
 * region of a doc is the text between `<!-- generated: NAME (npm run docs) -->` and `<!-- end: NAME -->`; `npm run
 * docs` writes each anew, and a test fails when one differs from what the code renders (as `npm run types` does).
 */
const tables: Record<string, () => string> = {
  checks: () =>
    table(
      ['Id', 'Operation', 'Severity', 'Passes when', 'Spec line enforced'],
      catalogue.map((check) => [
        `\`${check.id}\``,
        `\`${operations[check.operation]}\``,
        check.severity,
        check.title,
        check.spec,
      ]),
    ),
  'bank-score': () =>
    `**${mutations.length}/${mutations.length} mutations caught, 0/${conforming.length} false alarms on conforming ` +
    'variants.**',
  'bank-mutations': () => table(['Mutation (broken)', 'Caught by'], mutations.map(bankRow)),
  'bank-conforming': () => table(['Conforming variant', 'Expected failures'], conforming.map(bankRow)),
  'contract-options': () => optionsTable(contractCommand),
  'mock-options': () => optionsTable(mockCommand),
};

/** A command's options as its help gives them: the flag, its default, what it does. */
function optionsTable(command: Command): string {
  return table(
    ['Option', 'Default', 'Meaning'],
    command.options.map((option) => [
      `\`${optionLabel(option).replace(/\|/g, '\\|')}\``,
      option.defaultText ?? '',
      option.description.replace(/\|/g, '\\|'),
    ]),
  );
}

/** The docs that hold generated regions. */
export const generatedDocs = ['docs/contract.md', 'docs/mock.md', 'README.md'];

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')).replace(/ /g, ''), ...rows.map(line)].join('\n');
}

function bankRow(entry: BankEntry): string[] {
  const raised = entry.expect.map((check) => `\`${check.id}\` (${check.severity})`).join(', ');
  return [entry.name, raised || 'none'];
}

const region = /(<!-- generated: ([\w-]+) \(npm run docs\) -->\n)[\s\S]*?(\n<!-- end: \2 -->)/g;

/** The doc with each generated region rendered anew; a region of an unknown name throws, naming it. */
export function renderDocRegions(text: string): string {
  return text.replace(region, (_, start: string, name: string, end: string) => {
    const render = tables[name];
    if (!render) throw new Error(`no generated table named '${name}' (known: ${Object.keys(tables).join(', ')})`);
    return `${start}${render()}${end}`;
  });
}

/** The names of the regions a doc holds. */
export function docRegions(text: string): string[] {
  return [...text.matchAll(region)].map((match) => match[2] as string);
}
