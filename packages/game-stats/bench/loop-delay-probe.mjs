/**
 * @module Preloaded into the server process by the live-server benchmark only
 * (`node --import ./bench/loop-delay-probe.mjs dist/cli.js serve ...`), so production runs never
 * carry it: samples the event-loop delay (perf_hooks.monitorEventLoopDelay, 10 ms resolution)
 * and answers the benchmark over the IPC channel with the longest delay so far and the peak RSS.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

if (process.send) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const ms = (nanoseconds) => Math.round(nanoseconds / 1e4) / 100;
  process.on('message', (message) => {
    if (message?.type !== 'loop-delay') return;
    process.send({
      type: 'loop-delay',
      maxMs: ms(histogram.max),
      p99Ms: ms(histogram.percentile(99)),
      meanMs: ms(histogram.mean),
      // maxRSS is the high-water mark of the whole process life, in KiB.
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      rssMb: Math.round(process.memoryUsage.rss() / 1_048_576),
    });
    if (message.reset) histogram.reset();
  });
  // The channel must not keep the server alive after SIGTERM.
  process.channel?.unref();
}
