import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderDashboardPage } from '../../scripts/dashboard-page.js';
import { projectRoot } from '../helpers/cli.js';

describe("the dashboard's script", () => {
  it('is mock/control/page/dashboard-page.ts as esbuild bundles it (`npm run dashboard` after a change)', async () => {
    const committed = readFileSync(join(projectRoot, 'mock/control/dashboard-page-script.ts'), 'utf8');
    expect(committed).toBe(await renderDashboardPage());
  });
});
