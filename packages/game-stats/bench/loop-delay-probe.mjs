/**
 * @module Preloaded into the server process by the live-server benchmark only
 * (`node --import ./bench/loop-delay-probe.mjs dist/cli.js serve ...`), so production runs never
 * carry it: samples the event-loop delay (perf_hooks.monitorEventLoopDelay, 10 ms resolution)
 * and answers the benchmark over the IPC channel with the longest delay so far and the peak RSS.
 * With `BENCH_STALL_LOG=<file>` it also appends, for diagnosis, every 100 ms window whose longest
 * delay passed 25 ms and every garbage collection over 5 ms, in ms since process start.
 */
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

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

const stallLog = process.env.BENCH_STALL_LOG;
if (process.send && stallLog) {
  const window = monitorEventLoopDelay({ resolution: 10 });
  window.enable();
  const note = (line) => appendFileSync(stallLog, `${Math.round(performance.now())} ${line}\n`);
  process.on('message', (message) => {
    if (message?.type === 'mark') note(`-- ${message.text}`);
  });
  setInterval(() => {
    if (window.max > 25e6) note(`loop delay ${(window.max / 1e6).toFixed(1)} ms in the last 100 ms`);
    window.reset();
  }, 100).unref();
  // kind: 1 scavenge, 2 minor mark-compact, 4 mark-compact, 8 incremental marking, 16 weak callbacks.
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.duration > 5) note(`gc kind ${entry.detail?.kind} ${entry.duration.toFixed(1)} ms`);
  }).observe({ entryTypes: ['gc'] });
}
