import { readConfig } from '../../main/config.js';
import { startServer } from '../../main/server.js';
import type { Clock } from '../../main/services/clock.js';

/**
 * One server of `npm run bench:years` in its own process, on a clock the
 * benchmark moves forward: `{advance: ms}` over IPC shifts it, `{stop: true}`
 * closes the server as a shutdown of the PC does. Everything else it does as
 * a real store PC or hub would, on its own timers.
 */
let offsetMs = Number(process.env.BENCH_CLOCK_OFFSET_MS ?? 0);
const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };
// The data purge every 5 s of real time: a run's simulated weeks pass in seconds, and
// a PC's hourly purge would otherwise never run between two of its restarts.
const server = await startServer(readConfig(), { clock, synchronous: 'FULL', purgeIntervalMs: 5_000 });

process.on('message', (message: { advance?: number; stop?: boolean }) => {
  if (message.advance !== undefined) {
    offsetMs += message.advance;
    process.send?.({ offsetMs });
  }
  if (message.stop) {
    void server.close().then(() => process.exit(0));
  }
});
process.send?.({ ready: server.url, offsetMs });
