import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/cli.js';

// Lines as `wc -l` counts them: the text ends with a newline, not with a line.
const lines = readFileSync(join(projectRoot, 'README.md'), 'utf8').replace(/\n$/, '').split('\n');

/** What a newcomer meets: one screen per user, every line readable without scrolling sideways. */
describe('the README', () => {
  it('is at most 300 lines, none over 120 characters', () => {
    expect(lines.length).toBeLessThanOrEqual(300);
    expect(lines.filter((line) => line.length > 120)).toEqual([]);
  });

  it("gives each user's first runnable command within its first 40 lines", () => {
    const screen = lines.slice(0, 40).join('\n');
    for (const command of ['evalkit mock', 'evalkit contract --base-url https://', 'evalkit fixtures --count'])
      expect(screen).toContain(`npx --no-install ${command}`);
    expect(screen).toContain("import { build } from 'evalkit/factories'");
  });
});
