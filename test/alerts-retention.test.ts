import { describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { runCli } from './support/cli.js';
import { startTestServer } from './support/server.js';

const DAY = 86_400_000;
const GIB = 1024 ** 3;

/** Polls `GET /alerts` until `done` holds. */
async function alertsUntil(write: Api, done: (alerts: any[]) => boolean): Promise<any[]> {
  for (;;) {
    const res = await write.get('/alerts');
    expect(res.status).toBe(200);
    if (done(res.body.data)) return res.body.data;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('alerts kept as history', () => {
  it('go with the purge 90 days after they ended; a recent one and an open one stay', async () => {
    // The clock runs, shifted into the past: an alert opens once its condition lasted ALERT_AFTER_MS.
    let shift = -100 * DAY;
    let free = 50 * GIB;
    const server = await startTestServer({
      clock: { now: () => new Date(Date.now() + shift) },
      alertWatch: { alertAfterMs: 50, checkMs: 20, terminalCheckMs: 20 },
      diskFree: async () => free,
    });
    const write = api(server.url, server.createOrg().writeKey);
    await write.post('/stores', { name: 'Hofladen', adminMail: 'chef@example.ch' });
    const diskLow = (alerts: any[]) => alerts.filter((a) => a.kind === 'disk-low');
    const spell = async (): Promise<string> => {
      const opened = diskLow(await alertsUntil(write, (alerts) => diskLow(alerts).some((a) => a.endedAt === null)));
      const id = opened.find((a) => a.endedAt === null).id as string;
      free = 50 * GIB;
      await alertsUntil(write, (alerts) => alerts.some((a) => a.id === id && a.endedAt !== null));
      return id;
    };
    free = 0;
    const old = await spell();
    shift = -10 * DAY;
    free = 0;
    const recent = await spell();
    free = 0;
    const open = diskLow(await alertsUntil(write, (alerts) => diskLow(alerts).some((a) => a.endedAt === null))).find((a) => a.endedAt === null).id as string;
    await server.stop();

    const purged = await runCli(server.dataDir, ['purge', 'run', '--json']);
    expect(purged.status, purged.stderr).toBe(0);
    expect(purged.json.alerts).toBe(1);
    const left = server.sqlite().prepare('SELECT id FROM alerts ORDER BY since').pluck().all();
    expect(left).toEqual([recent, open]);
    expect(left).not.toContain(old);
    await server.destroy();
  });
});
