import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { startFakePrinter, type FakePrinter } from './support/fake-printer.js';
import { TEST_PRINTER_NETWORK } from './support/printers.js';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from './support/smtp-receiver.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';
import { configureSync, FAST_SYNC } from './support/sync.js';
import { startTerminalSimulator, TEST_TERMINAL_NETWORK } from './support/terminal-simulator.js';

const GIB = 1024 ** 3;
let free = 50 * GIB;
let server: TestServer;
let receiver: SmtpReceiver;
let org: TestOrg;
let write: Api;

const alertKind = (mail: ReceivedMail) => mail.headers.get('x-alert-kind');

/** Polls `GET /alerts` until `done` holds. */
async function alertsUntil(done: (alerts: any[]) => boolean): Promise<any[]> {
  const ends = Date.now() + 20_000;
  let last: unknown;
  while (Date.now() < ends) {
    const res = await write.get('/alerts');
    expect(res.status).toBe(200);
    last = res.body.data;
    if (done(res.body.data)) return res.body.data;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`GET /alerts did not get there: ${JSON.stringify(last)}`);
}

beforeAll(async () => {
  receiver = await startSmtpReceiver();
  server = await startTestServer({
    mailSender: { idleCheckMs: 50, retryBaseMs: 50, retryMaxMs: 200 },
    alertWatch: { alertAfterMs: 300, checkMs: 40, terminalCheckMs: 40 },
    diskFree: async () => free,
    printerNetwork: TEST_PRINTER_NETWORK,
    sync: FAST_SYNC,
    terminalNetwork: TEST_TERMINAL_NETWORK,
  });
  org = server.createOrg();
  write = api(server.url, org.writeKey);
  expect((await write.post('/mail/settings', { smtpUrl: receiver.url, from: 'Kasse <kasse@example.ch>' })).status).toBe(200);
});

afterAll(async () => {
  await server.destroy();
  await receiver.close();
});

describe('GET /alerts', () => {
  it('refuses a read key', async () => {
    expect((await api(server.url, org.readKey).get('/alerts')).status).toBe(403);
  });
});

describe('disk-low', () => {
  it('mails the admin once the condition lasted ALERT_AFTER_MS, in the store language, and again when it ends; within the hour no second alert mail', async () => {
    const store = (await write.post('/stores', { name: 'Boutique Lausanne', languageMain: 'fr', adminMail: 'patron@example.ch', timeZone: 'Europe/Zurich' })).body.id as string;
    const before = Date.now();
    free = 200 * 1024 ** 2;
    const [alert] = await receiver.waitFor((mails) => mails.some((m) => alertKind(m) === 'disk-low'), 'the disk-low alert');
    const mail = receiver.mails.find((m) => alertKind(m) === 'disk-low')!;
    expect(mail.to).toEqual(['patron@example.ch']);
    expect(mail.subject).toBe('[Alerte] Boutique Lausanne: Espace disque insuffisant');
    expect(mail.text).toMatch(/moins de 1 Gio libre/);
    expect(mail.text).toMatch(/Depuis: /);
    expect(mail.text).toMatch(/En premier: Supprimez les fichiers inutiles/);
    expect(alert).toBeDefined();
    const open = await alertsUntil((alerts) => alerts.some((a) => a.kind === 'disk-low' && a.store === store));
    const row = open.find((a) => a.kind === 'disk-low' && a.store === store);
    expect(row).toMatchObject({ store, kind: 'disk-low', endedAt: null });
    expect(Date.parse(row.since)).toBeGreaterThanOrEqual(before - 1000);

    free = 50 * GIB;
    await receiver.waitFor((mails) => mails.some((m) => m.headers.get('x-alert-kind') === 'disk-low' && m.subject.startsWith('[Résolu]')), 'the resolution');
    const ended = await alertsUntil((alerts) => alerts.every((a) => a.kind !== 'disk-low' || a.endedAt !== null));
    expect(ended.find((a) => a.id === row.id).endedAt).not.toBeNull();

    free = 100 * 1024 ** 2;
    await alertsUntil((alerts) => alerts.filter((a) => a.kind === 'disk-low' && a.store === store).length === 2);
    free = 50 * GIB;
    await alertsUntil((alerts) => alerts.every((a) => a.endedAt !== null));
    const mails = await write.get('/mail?limit=100');
    const diskMails = mails.body.data.filter((m: any) => m.subject.includes('Espace disque'));
    expect(diskMails.map((m: any) => m.kind).sort()).toEqual(['alert', 'alert-resolved']);
  });
});

describe('printer-error', () => {
  let printer: FakePrinter;

  beforeAll(async () => {
    printer = await startFakePrinter();
  });

  afterAll(async () => {
    await printer.close();
  });

  it('a printer out of paper is an alert in German until a check finds paper again', async () => {
    const store = (await write.post('/stores', { name: 'Laden Bern', languageMain: 'de', adminMail: 'chefin@example.ch' })).body.id as string;
    const id = (await write.post('/printers', { store, name: 'Kasse 1', host: printer.host, port: printer.port })).body.id as string;
    printer.setPaperOut(true);
    const checked = await write.post(`/printers/${id}/check`);
    expect(checked.body.data.state).toBe('paperOut');
    await receiver.waitFor((mails) => mails.some((m) => alertKind(m) === 'printer-error' && m.to[0] === 'chefin@example.ch'), 'the printer alert');
    const mail = receiver.mails.find((m) => alertKind(m) === 'printer-error')!;
    expect(mail.subject).toBe('[Alarm] Laden Bern: Belegdrucker gestört');
    expect(mail.text).toMatch(/Festgestellt: Kasse 1: paperOut/);
    expect(mail.text).toMatch(/Als Erstes: Legen Sie eine neue Papierrolle ein/);
    printer.setPaperOut(false);
    expect((await write.post(`/printers/${id}/check`)).body.data.state).toBe('ready');
    await receiver.waitFor((mails) => mails.some((m) => alertKind(m) === 'printer-error' && m.subject.startsWith('[Behoben]')), 'the printer resolution');
    const resolved = receiver.mails.find((m) => alertKind(m) === 'printer-error' && m.subject.startsWith('[Behoben]'))!;
    expect(resolved.text).toMatch(/Behoben um: /);
  });
});

describe('upstream-unreachable', () => {
  it('a head office that cannot be reached is an alert in English until sync reaches one', async () => {
    const shop = server.createOrg();
    const client = api(server.url, shop.writeKey);
    expect((await client.post('/mail/settings', { smtpUrl: receiver.url, from: 'till@example.ch' })).status).toBe(200);
    const store = (await client.post('/stores', { name: 'Corner Shop', languageMain: 'en', adminMail: 'owner@example.ch' })).body.id as string;
    configureSync(server.dataDir, shop.id, { url: 'http://127.0.0.1:1/api/v1', key: 'no-upstream-here' });
    await receiver.waitFor((mails) => mails.some((m) => alertKind(m) === 'upstream-unreachable'), 'the upstream alert');
    const mail = receiver.mails.find((m) => alertKind(m) === 'upstream-unreachable')!;
    expect(mail).toMatchObject({ to: ['owner@example.ch'], subject: '[Alert] Corner Shop: Head office not reached' });
    expect(mail.text).toMatch(/First thing to do: Check the store PC's internet connection/);
    const open = (await client.get('/alerts')).body.data;
    expect(open).toMatchObject([{ store, kind: 'upstream-unreachable', endedAt: null }]);

    const upstream = await startTestServer();
    try {
      const head = upstream.createOrg();
      configureSync(server.dataDir, shop.id, { url: upstream.url, key: head.writeKey });
      await receiver.waitFor((mails) => mails.some((m) => alertKind(m) === 'upstream-unreachable' && m.subject.startsWith('[Resolved]')), 'the upstream resolution');
      const ended = (await client.get('/alerts')).body.data;
      expect(ended[0].endedAt).not.toBeNull();
    } finally {
      await upstream.destroy();
    }
  });
});

describe('payment-without-order', () => {
  it('an approved card payment no order names is an alert until the sale is recorded with it', async () => {
    const sim = await startTerminalSimulator();
    try {
      const shop = server.createOrg();
      const client = api(server.url, shop.writeKey);
      expect((await client.post('/mail/settings', { smtpUrl: receiver.url, from: 'caisse@example.ch' })).status).toBe(200);
      const store = (await client.post('/stores', { name: 'Épicerie Sion', languageMain: 'fr', adminMail: 'gerant@example.ch' })).body.id as string;
      const product = (await client.post('/products', { name: 'Pain', price: 420, taxCategory: '2.6' })).body.id as string;
      const kiosk = api(server.url, (await client.post('/keys', { kind: 'kiosk', store, name: 'Borne' })).body.key);
      const { host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate } = sim.ready;
      expect((await client.post('/terminals', { store, name: 'Terminal', protocol: 'nexo-local', host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate })).status).toBe(201);
      const payment = (await kiosk.post('/payments', { store, amount: 420, currency: 'CHF', reference: 'sale-1' })).body.data.id as string;
      while ((await kiosk.get(`/payments/${payment}`)).body.data.state !== 'approved') await new Promise((r) => setTimeout(r, 20));
      await receiver.waitFor((mails) => mails.some((m) => alertKind(m) === 'payment-without-order'), 'the payment alert');
      const mail = receiver.mails.find((m) => alertKind(m) === 'payment-without-order')!;
      expect(mail).toMatchObject({ to: ['gerant@example.ch'], subject: '[Alerte] Épicerie Sion: Paiement par carte sans vente' });
      expect(mail.text).toMatch(/Constaté: 1 × CHF 4\.20/);
      const order = await kiosk.post('/orders', { store, orderId: 'sale-1', payment, products: [{ productId: product, quantity: 1 }] });
      expect(order.status, JSON.stringify(order.body)).toBe(200);
      await receiver.waitFor((mails) => mails.some((m) => alertKind(m) === 'payment-without-order' && m.subject.startsWith('[Résolu]')), 'the payment resolution');
    } finally {
      await sim.stop();
    }
  });
});

describe('terminal-unreachable', () => {
  it('a card terminal off the network is an alert until it answers again', async () => {
    const sim = await startTerminalSimulator();
    try {
      const shop = server.createOrg();
      const client = api(server.url, shop.writeKey);
      expect((await client.post('/mail/settings', { smtpUrl: receiver.url, from: 'cassa@example.ch' })).status).toBe(200);
      const store = (await client.post('/stores', { name: 'Bottega Bellinzona', languageMain: 'it', adminMail: 'titolare@example.ch' })).body.id as string;
      const { host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate } = sim.ready;
      expect((await client.post('/terminals', { store, name: 'Terminale', protocol: 'nexo-local', host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate })).status).toBe(201);
      await sim.unreachable(3000);
      const ours = (m: ReceivedMail) => alertKind(m) === 'terminal-unreachable' && m.to[0] === 'titolare@example.ch';
      await receiver.waitFor((mails) => mails.some(ours), 'the terminal alert');
      const mail = receiver.mails.find(ours)!;
      expect(mail).toMatchObject({ to: ['titolare@example.ch'], subject: '[Allarme] Bottega Bellinzona: Terminale di pagamento non raggiungibile' });
      expect(mail.text).toMatch(/Per prima cosa: Verificate che il terminale sia acceso/);
      await receiver.waitFor((mails) => mails.some((m) => ours(m) && m.subject.startsWith('[Risolto]')), 'the terminal resolution');
    } finally {
      await sim.stop();
    }
  });
});
