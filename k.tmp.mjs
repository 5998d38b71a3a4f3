const mods = ['@kubb/core', '@kubb/plugin-oas', '@kubb/plugin-client', '@kubb/plugin-faker', '@kubb/plugin-msw', 'msw/node', '@faker-js/faker', 'express', 'supertest', 'fast-check'];
let total = 0;
for (const m of mods) { const c = process.cpuUsage(); await import(m); const d = process.cpuUsage(c); total += (d.user + d.system) / 1000; process.stdout.write(`${m} ${((d.user + d.system) / 1000).toFixed(0)}  `); }
console.log('\ntotal', total.toFixed(0), 'ms cpu (main thread+all threads)');
