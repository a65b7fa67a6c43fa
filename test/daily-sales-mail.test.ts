import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { startSmtpReceiver, type SmtpReceiver } from './support/smtp-receiver.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

let now = Date.parse('2026-11-25T10:00:00.000Z');
const clock = { now: () => new Date(now) };
const FAST = { mailSender: { idleCheckMs: 50, retryBaseMs: 50, retryMaxMs: 200 } };

let receiver: SmtpReceiver;
let server: TestServer;
let org: TestOrg;
let write: Api;
let store: string;
let cheese: string;
let honey: string;

async function created(path: string, body: Record<string, unknown>): Promise<string> {
  const res = await write.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
}

async function sell(orderDate: string, products: { productId: string; quantity: number }[]): Promise<void> {
  const res = await write.post('/orders', { store, orderDate, products });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

beforeAll(async () => {
  receiver = await startSmtpReceiver();
  server = await startTestServer({ clock, ...FAST });
  org = server.createOrg();
  write = api(server.url, org.writeKey);
  expect((await write.post('/mail/settings', { smtpUrl: receiver.url, from: 'Negozio <negozio@example.ch>' })).status).toBe(200);
  store = await created('/stores', { name: 'Negozio Lugano', languageMain: 'it', timeZone: 'Europe/Zurich' });
  const dairy = await created('/suppliers', { name: 'Caseificio Ticino', dailyMail: 'vendite@caseificio.example.ch' });
  const bees = await created('/suppliers', { name: 'Apicoltura', dailyMail: 'ja' });
  await created('/suppliers', { name: 'Panetteria', dailyMail: 'pane@example.ch' });
  cheese = await created('/products', { name: 'Formaggio Piora', price: 1250, taxCategory: '2.6', supplier: dairy });
  honey = await created('/products', { name: 'Miele', price: 900, taxCategory: '2.6', supplier: bees });
  // The schedule's first look at the organization (at a start) marks the day just ended as its starting point.
  server = await server.restart({ clock, ...FAST });
  write = api(server.url, org.writeKey);
});

afterAll(async () => {
  await server.destroy();
  await receiver.close();
});

describe('POST /mail/daily', () => {
  it('refuses a read key and a date that is not one', async () => {
    expect((await api(server.url, org.readKey).post('/mail/daily', { date: '2026-11-24' })).status).toBe(403);
    const bad = await write.post('/mail/daily', { date: '24.11.2026' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('date: must be a day of the calendar as YYYY-MM-DD, for example 2026-11-24');
  });

  it("queues one mail per supplier with an address and sales, in the store's language, once per day", async () => {
    // 23:30 in Lugano on the 24th is 22:30 UTC; 00:30 on the 25th is the next day's.
    await sell('2026-11-24T08:00:00.000Z', [{ productId: cheese, quantity: 2 }, { productId: honey, quantity: 1 }]);
    await sell('2026-11-24T22:30:00.000Z', [{ productId: cheese, quantity: 1 }]);
    await sell('2026-11-24T23:30:00.000Z', [{ productId: cheese, quantity: 5 }]);
    const first = await write.post('/mail/daily', { date: '2026-11-24' });
    expect(first.body).toEqual({ data: { queued: 1 } });
    expect((await write.post('/mail/daily', { date: '2026-11-24' })).body).toEqual({ data: { queued: 0 } });
    const [mail] = await receiver.waitFor((mails) => mails.length === 1, 'the daily mail');
    expect(mail!.to).toEqual(['vendite@caseificio.example.ch']);
    expect(mail!.subject).toBe('Vendite del 24 novembre 2026: Caseificio Ticino');
    expect(mail!.text).toContain('Negozio Lugano');
    expect(mail!.text).toContain('Articolo | Quantità | Importo');
    expect(mail!.text).toMatch(/Formaggio Piora \| 3 \| CHF\s37\.50/);
    expect(mail!.text).toMatch(/Totale del giorno: CHF\s37\.50/);
    expect(mail!.text).not.toContain('Miele');
    const listed = await write.get('/mail');
    expect(listed.body.data.filter((m: any) => m.kind === 'daily-sales')).toHaveLength(1);
  });

  it('queues nothing for a day without sales', async () => {
    expect((await write.post('/mail/daily', { date: '2026-11-20' })).body).toEqual({ data: { queued: 0 } });
  });
});

describe('DAILY_MAIL_AT', () => {
  it('catches up the days the PC was off, once each, after the stores passed the hour', async () => {
    await sell('2026-11-25T09:00:00.000Z', [{ productId: cheese, quantity: 1 }]);
    await sell('2026-11-26T09:00:00.000Z', [{ productId: cheese, quantity: 4 }]);
    await server.stop();
    // Off for two days; it comes back at 07:00 in Lugano on the 27th.
    now = Date.parse('2026-11-27T06:00:00.000Z');
    server = await server.restart({ clock, ...FAST });
    write = api(server.url, org.writeKey);
    const mails = await receiver.waitFor((all) => all.length === 3, 'the two days caught up');
    expect(mails.slice(1).map((m) => m.subject)).toEqual(['Vendite del 25 novembre 2026: Caseificio Ticino', 'Vendite del 26 novembre 2026: Caseificio Ticino']);
    expect(mails[2]!.text).toMatch(/Formaggio Piora \| 4 \| CHF\s50\.00/);
    // A day already sent is not sent again when asked.
    expect((await write.post('/mail/daily', { date: '2026-11-26' })).body).toEqual({ data: { queued: 0 } });
  });
});
