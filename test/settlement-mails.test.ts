import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { startTestServer, type TestServer } from './support/server.js';
import { buildShop, sellMonth, type SettlementShop } from './support/settlement-shop.js';
import { startSmtpReceiver, type SmtpReceiver } from './support/smtp-receiver.js';

let server: TestServer;
let receiver: SmtpReceiver;
let write: Api;
let readKey: string;
let shop: SettlementShop;
let settlement: string;

beforeAll(async () => {
  receiver = await startSmtpReceiver();
  server = await startTestServer({ mailSender: { retryBaseMs: 50, retryMaxMs: 200, idleCheckMs: 50 } });
  const org = server.createOrg();
  readKey = org.readKey;
  write = api(server.url, org.writeKey);
  expect((await write.post('/mail/settings', { smtpUrl: receiver.url, from: 'Hofladen Dorf <laden@example.ch>' })).status).toBe(200);
  shop = await buildShop(write);
  await sellMonth(write, shop);
  settlement = (await write.post('/settlements', { to: new Date().toISOString() })).body.id;
});
afterAll(async () => {
  await server.destroy();
  await receiver.close();
});

describe('POST /settlements/{id}/send', () => {
  it('is refused for a read key', async () => {
    expect((await api(server.url, readKey).post(`/settlements/${settlement}/send`)).status).toBe(403);
  });

  it("mails each supplier with an address its statement, to payoutEmail else email, once", async () => {
    const res = await write.post(`/settlements/${settlement}/send`);
    expect(res.status).toBe(200);
    // Käserei Eggli has no address.
    expect(res.body).toEqual({ data: { queued: 2 } });
    const mails = await receiver.waitFor((all) => all.length === 2, 'two statement mails');
    expect(mails.map((m) => m.to[0]).sort()).toEqual(['geld@mueller.example', 'hof@brunner.example']);
    const mueller = mails.find((m) => m.to[0] === 'geld@mueller.example')!;
    expect(mueller.subject).toBe('Abrechnung Nr. 1 – Hofladen Dorf, Marktstand');
    expect(mueller.text).toContain('Im Anhang finden Sie die Abrechnung Nr. 1');
    expect(mueller.attachments.map((a) => [a.filename, a.contentType])).toEqual([['statement-1.pdf', 'application/pdf']]);
    expect(mueller.attachments[0]!.content.subarray(0, 5).toString()).toBe('%PDF-');

    expect((await write.post(`/settlements/${settlement}/send`)).body).toEqual({ data: { queued: 0 } });
    const listed = (await write.get('/mail?limit=100')).body.data.filter((m: { kind: string }) => m.kind === 'statement');
    expect(listed).toHaveLength(2);
  });

  it('answers 404 for a settlement of nobody', async () => {
    expect((await write.post('/settlements/nothing/send')).status).toBe(404);
  });
});
