// `node test/api/kubb-build.mjs DIR`: Kubb's own build, as `kubb generate` runs it, on DIR/openapi.json into DIR/gen,
// without the CLI's update check and telemetry (no network). A process of its own, in plain Node: Kubb's module graph
// costs a test worker half as much again through the workers' TypeScript hooks, and stays in its heap.
import { join } from 'node:path';
import { build, memoryStorage } from '@kubb/core';
import { pluginClient } from '@kubb/plugin-client';
import { pluginFaker } from '@kubb/plugin-faker';
import { pluginMsw } from '@kubb/plugin-msw';
import { pluginOas } from '@kubb/plugin-oas';
import { pluginTs } from '@kubb/plugin-ts';
import { pluginZod } from '@kubb/plugin-zod';

const dir = process.argv[2];
// A failed plugin rejects the build: the process exits non-zero with the errors on stderr.
await build({
  config: {
    root: dir,
    input: { path: join(dir, 'openapi.json') },
    // The files are written by Kubb's file plugin; its default storage would write them again, relative to the
    // process's working directory (Kubb 4.39): kept in memory instead.
    // A barrel of every plugin's exports, as a frontend imports them: one identifier per name across plugins.
    output: { path: join(dir, 'gen'), clean: true, format: false, storage: memoryStorage(), barrelType: 'named' },
    plugins: [
      pluginOas(),
      pluginTs(),
      pluginClient({ client: 'fetch' }),
      pluginFaker(),
      pluginZod(),
      pluginMsw({ parser: 'faker' }),
    ],
  },
});
