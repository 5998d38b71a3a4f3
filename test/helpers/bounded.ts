import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { projectRoot } from './cli.js';

/** The built module at `path` (from the project root, e.g. `dist/generators/index.js`), as an import specifier. */
export function builtModule(path: string): string {
  return pathToFileURL(`${projectRoot}${path}`).href;
}

/**
 * Runs an ES module's source in a worker thread and resolves with the first message it posts. A draw that never ends
 * blocks its thread for good, and no test limit can interrupt it there; in a worker it is terminated after `ms` and
 * the promise rejects, so a hang is a red test rather than a suite that never finishes.
 */
export function endsWithin<T>(source: string, ms: number): Promise<T> {
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`));
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`did not end within ${ms} ms`));
    }, ms);
    const settle = (finish: () => void) => {
      clearTimeout(timer);
      void worker.terminate();
      finish();
    };
    worker.once('message', (message: T) => settle(() => resolve(message)));
    worker.once('error', (error) => settle(() => reject(error)));
  });
}
