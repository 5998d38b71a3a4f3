/**
 * Preloaded (`node --import`) into every benchmarked server, ours and Prism alike: on the parent's 'usage' message it
 * answers with the process's own CPU time and RSS, so every server is measured by the same accounting.
 */
process.on('message', (message) => {
  if (message === 'usage') process.send?.({ cpu: process.cpuUsage(), rss: process.memoryUsage().rss });
});
// The IPC channel must not keep a server alive, nor count as one of its handles.
process.channel?.unref();
