import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.js';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from './support/smtp-receiver.js';
import { startTestServer, type TestServer } from './support/server.js';
import { configureSync, drainedSince, FAST_SYNC, waitForSync } from './support/sync.js';

/**
 * A hub and a store PC serving two organizations, each with one store: the
 * "quiet" one has no mail server on the PC, so the hub mails its alerts; the
 * "mailing" one has one, so the PC mails and the hub only lists. Heartbeats go
 * every second; the hub's ALERT_AFTER_MS is five of them, so a busy machine
 * does not make a PC look silent.
 */
const HUB_ALERT_AFTER_MS = 5_000;
const GIB = 1024 ** 3;
const FAST_MAIL = { idleCheckMs: 50, retryBaseMs: 50, retryMaxMs: 200 };
const started = new Date().toISOString();
let free = 50 * GIB;
let receiver: SmtpReceiver;
let hub: TestServer;
let pc: TestServer;
let proxy: FaultProxy;

interface Side {
  /** Write client of the organization on the store PC. */
  pc: Api;
  /** Write client of its organization on the hub. */
  hub: Api;
  /** The store's id on the hub. */
  store: string;
}
let quiet: Side;
let mailing: Side;

const kindOf = (mail: ReceivedMail) => mail.headers.get('x-alert-kind');
const to = (address: string, kind: string) => (mail: ReceivedMail) => mail.to[0] === address && kindOf(mail) === kind;

/** Polls the hub's `GET /alerts` until `done` holds for the alerts of `kind`. */
async function hubAlertsUntil(side: Side, kind: string, done: (alerts: any[]) => boolean): Promise<any[]> {
  const ends = Date.now() + 30_000;
  let last: unknown;
  while (Date.now() < ends) {
    const res = await side.hub.get('/alerts');
    expect(res.status).toBe(200);
    last = res.body.data;
    const ofKind = res.body.data.filter((a: any) => a.kind === kind && a.store === side.store);
    if (done(ofKind)) return ofKind;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the hub's GET /alerts did not get there: ${JSON.stringify(last)}`);
}

const alertMailsIn = async (client: Api) => ((await client.get('/mail?limit=100')).body.data as any[]).filter((m) => m.kind === 'alert' || m.kind === 'alert-resolved');

async function side(name: string, languageMain: string, adminMail: string, pcMailFrom: string | undefined): Promise<Side> {
  const hubOrg = hub.createOrg();
  const pcOrg = pc.createOrg();
  const hubClient = api(hub.url, hubOrg.writeKey);
  const pcClient = api(pc.url, pcOrg.writeKey);
  expect((await hubClient.post('/mail/settings', { smtpUrl: receiver.url, from: 'zentrale@example.ch' })).status).toBe(200);
  if (pcMailFrom) expect((await pcClient.post('/mail/settings', { smtpUrl: receiver.url, from: pcMailFrom })).status).toBe(200);
  configureSync(pc, pcOrg.id, { url: proxy.url, key: hubOrg.writeKey, pullIntervalSeconds: 1 });
  const local = (await pcClient.post('/stores', { name, languageMain, adminMail, timeZone: 'Europe/Zurich' })).body.id as string;
  const sold = await pcClient.post('/orders', { store: local, products: [{ productId: 'x', quantity: 1, title: 'Brot', price: 450, taxRate: 0.026 }] });
  expect(sold.status).toBe(200);
  await waitForSync(pcClient, drainedSince(started));
  const store = pc.sqlite().prepare("SELECT upstream_id FROM sync_ids WHERE org_id = ? AND kind = 'store' AND local_id = ?").pluck().get(pcOrg.id, local) as string;
  expect((await hubClient.get(`/stores/${store}`)).body.data).toMatchObject({ name, languageMain, adminMail });
  return { pc: pcClient, hub: hubClient, store };
}

beforeAll(async () => {
  receiver = await startSmtpReceiver();
  hub = await startTestServer({
    mailSender: FAST_MAIL,
    alertWatch: { alertAfterMs: HUB_ALERT_AFTER_MS, checkMs: 40 },
    diskFree: async () => 50 * GIB,
  });
  proxy = await startFaultProxy(hub.url);
  pc = await startTestServer({
    sync: FAST_SYNC,
    mailSender: FAST_MAIL,
    alertWatch: { alertAfterMs: 300, checkMs: 40 },
    diskFree: async () => free,
  });
  quiet = await side('Boutique Lausanne', 'fr', 'patron@example.ch', undefined);
  mailing = await side('Laden Bern', 'de', 'chefin@example.ch', 'kasse@example.ch');
}, 60_000);

afterAll(async () => {
  await pc?.destroy();
  await proxy?.close();
  await hub?.destroy();
  await receiver?.close();
});

describe("a store PC's own alerts, as its heartbeat reports them", () => {
  it('are listed by the hub and mailed once: by the hub for a PC without a mail server, by the PC itself otherwise', async () => {
    free = 200 * 1024 ** 2;
    await receiver.waitFor((mails) => mails.some(to('patron@example.ch', 'disk-low')) && mails.some(to('chefin@example.ch', 'disk-low')), 'both disk-low alerts');
    const fromHub = receiver.mails.find(to('patron@example.ch', 'disk-low'))!;
    expect(fromHub.from).toBe('zentrale@example.ch');
    expect(fromHub.subject).toBe('[Alerte] Boutique Lausanne: Espace disque insuffisant');
    expect(fromHub.text).toMatch(/Constaté: .+: \d+ MiB free/);
    expect(receiver.mails.find(to('chefin@example.ch', 'disk-low'))!.from).toBe('kasse@example.ch');

    const [quietOpen] = await hubAlertsUntil(quiet, 'disk-low', (alerts) => alerts.length === 1);
    expect(quietOpen).toMatchObject({ store: quiet.store, kind: 'disk-low', endedAt: null });
    const [mailingOpen] = await hubAlertsUntil(mailing, 'disk-low', (alerts) => alerts.length === 1);
    expect(mailingOpen).toMatchObject({ store: mailing.store, kind: 'disk-low', endedAt: null });
    // The hub queues an alert's mail in the transaction that lists it: none for the PC that mails its own.
    expect(await alertMailsIn(mailing.hub)).toEqual([]);

    free = 50 * GIB;
    await hubAlertsUntil(quiet, 'disk-low', (alerts) => alerts.length === 1 && alerts[0].endedAt !== null);
    await hubAlertsUntil(mailing, 'disk-low', (alerts) => alerts.length === 1 && alerts[0].endedAt !== null);
    await receiver.waitFor(
      (mails) => mails.some((m) => to('patron@example.ch', 'disk-low')(m) && m.subject.startsWith('[Résolu]')) && mails.some((m) => to('chefin@example.ch', 'disk-low')(m) && m.subject.startsWith('[Behoben]')),
      'both resolutions',
    );
    expect(receiver.mails.filter(to('patron@example.ch', 'disk-low')).map((m) => [m.from, m.subject])).toEqual([
      ['zentrale@example.ch', '[Alerte] Boutique Lausanne: Espace disque insuffisant'],
      ['zentrale@example.ch', '[Résolu] Boutique Lausanne: Espace disque insuffisant'],
    ]);
    expect(await alertMailsIn(quiet.pc)).toEqual([]);
    expect(await alertMailsIn(mailing.hub)).toEqual([]);
    expect((await alertMailsIn(mailing.pc)).map((m) => m.kind).sort()).toEqual(['alert', 'alert-resolved']);
  });
});

describe('a heartbeat of a newer or an older store PC', () => {
  it("takes the conditions the hub knows, mails them when the PC has no mail server, and ignores kinds it does not know", async () => {
    const hubOrg = hub.createOrg();
    const client = api(hub.url, hubOrg.writeKey);
    expect((await client.post('/mail/settings', { smtpUrl: receiver.url, from: 'zentrale@example.ch' })).status).toBe(200);
    const store = (await client.post('/stores', { name: 'Corner Shop', languageMain: 'en', adminMail: 'owner@example.ch' })).body.id as string;
    const since = new Date(Date.now() - 600_000).toISOString();
    const heartbeat = {
      device: 'newer-pc-0001',
      name: 'Till 2',
      version: '9.0.0',
      stores: [store],
      lastPushAt: null,
      lastPullAt: null,
      pending: 0,
      parked: 0,
      oldestPendingAt: null,
      lastSaleAt: null,
      printers: [{ name: 'Till printer', state: 'paperOut' }],
      diskFreeBytes: null,
      databaseBytes: null,
      alerts: [
        { store, kind: 'printer-error', since, detail: 'Till printer: paperOut' },
        { store, kind: 'scale-unreachable', since, detail: 'a kind of a later version' },
      ],
      mailsAlerts: false,
    };
    expect((await client.post('/fleet/heartbeat', heartbeat)).status).toBe(200);
    await receiver.waitFor((mails) => mails.some(to('owner@example.ch', 'printer-error')), 'the reported printer alert');
    const mail = receiver.mails.find(to('owner@example.ch', 'printer-error'))!;
    expect(mail.subject).toBe('[Alert] Corner Shop: Receipt printer in error');
    expect(mail.text).toMatch(/Seen: Till 2: Till printer: paperOut/);
    const listed = ((await client.get('/alerts')).body.data as any[]).filter((a) => a.store === store);
    expect(listed).toEqual([{ id: expect.any(String), store, kind: 'printer-error', since, endedAt: null }]);

    const { alerts: _reported, mailsAlerts: _mails, ...older } = heartbeat;
    expect((await client.post('/fleet/heartbeat', older)).status).toBe(200);
    await receiver.waitFor((mails) => mails.some((m) => to('owner@example.ch', 'printer-error')(m) && m.subject.startsWith('[Resolved]')), 'its end');
  });
});

describe('a store PC that stops sending heartbeats', () => {
  it("is an alert of its store on the hub after ALERT_AFTER_MS, mailed in the store's language, until it reports again", async () => {
    const cut = Date.now();
    proxy.setMode('down');
    await receiver.waitFor((mails) => mails.some(to('patron@example.ch', 'store-pc-silent')) && mails.some(to('chefin@example.ch', 'store-pc-silent')), 'both silence alerts');
    expect(Date.now() - cut).toBeGreaterThanOrEqual(HUB_ALERT_AFTER_MS - 1_500);
    const french = receiver.mails.find(to('patron@example.ch', 'store-pc-silent'))!;
    expect(french.from).toBe('zentrale@example.ch');
    expect(french.subject).toBe('[Alerte] Boutique Lausanne: Le PC du magasin ne donne plus de nouvelles');
    expect(french.text).toMatch(/En premier: Vérifiez que le PC du magasin est allumé/);
    const german = receiver.mails.find(to('chefin@example.ch', 'store-pc-silent'))!;
    expect(german.subject).toBe('[Alarm] Laden Bern: Laden-PC meldet sich nicht');
    const [open] = await hubAlertsUntil(quiet, 'store-pc-silent', (alerts) => alerts.length === 1);
    expect(open).toMatchObject({ store: quiet.store, kind: 'store-pc-silent', endedAt: null });
    const device = (await quiet.hub.get('/fleet')).body.data[0];
    expect(open.since).toBe(device.lastSeenAt);

    proxy.setMode('pass');
    await receiver.waitFor(
      (mails) => mails.some((m) => to('patron@example.ch', 'store-pc-silent')(m) && m.subject.startsWith('[Résolu]')) && mails.some((m) => to('chefin@example.ch', 'store-pc-silent')(m) && m.subject.startsWith('[Behoben]')),
      'both ends of the silence',
    );
    const [ended] = await hubAlertsUntil(quiet, 'store-pc-silent', (alerts) => alerts.length === 1 && alerts[0].endedAt !== null);
    expect(ended.id).toBe(open.id);
    expect(receiver.mails.filter(to('patron@example.ch', 'store-pc-silent'))).toHaveLength(2);
    // The PC's own "head office not reached" is not reported: the hub knew it as the silence.
    expect(((await quiet.hub.get('/alerts')).body.data as any[]).map((a) => a.kind)).not.toContain('upstream-unreachable');
  });
});
