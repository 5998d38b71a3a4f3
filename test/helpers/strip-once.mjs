// The global setup that strips the project's TypeScript for the run before the workers start (typescript-hooks.mjs).
import { fileURLToPath } from 'node:url';
import { stripAll } from './typescript-hooks.mjs';

export default () => stripAll(fileURLToPath(new URL('../../', import.meta.url)));
