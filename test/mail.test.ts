import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { runCli } from './support/cli.js';
import { localCertificate, startSmtpReceiver, type SmtpReceiver } from './support/smtp-receiver.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

const FAST_TIMEOUTS = { connectMs: 1000, greetingMs: 500, socketMs: 1000 };

let cert: { cert: string; key: string };
let server: TestServer;
let org: TestOrg;
let write: Api;

/** Polls `GET /mail` until the mail with `id` satisfies `done`. */
async function mailRow(client: Api, id: string, done: (row: any) => boolean): Promise<any> {
  const ends = Date.now() + 20_000;
  let last: unknown;
  while (Date.now() < ends) {
    const res = await client.get('/mail?limit=100');
    expect(res.status).toBe(200);
    const row = res.body.data.find((m: any) => m.id === id);
    last = row;
    if (row && done(row)) return row;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the mail did not get there: ${JSON.stringify(last)}`);
}

async function queueTest(client: Api, to: string): Promise<string> {
  const res = await client.post('/mail/test', { to });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.data.id as string;
}

beforeAll(async () => {
  cert = await localCertificate();
  server = await startTestServer({
    mailSender: { timeouts: FAST_TIMEOUTS, retryBaseMs: 50, retryMaxMs: 200, idleCheckMs: 50, trustedCa: cert.cert },
  });
  org = server.createOrg();
  write = api(server.url, org.writeKey);
});

afterAll(async () => {
  await server.destroy();
});

describe('GET /mail and POST /mail/*: who may', () => {
  it('refuses a read key and no key', async () => {
    const read = api(server.url, org.readKey);
    expect((await read.get('/mail')).status).toBe(403);
    expect((await read.post('/mail/test', { to: 'a@example.ch' })).status).toBe(403);
    expect((await api(server.url).get('/mail')).status).toBe(403);
  });
});

describe('POST /mail/settings', () => {
  it('refuses a URL that does not parse, a foreign scheme and a sender that is no address, naming the field', async () => {
    const bad = await write.post('/mail/settings', { smtpUrl: 'smtp//mail example', from: 'laden@example.ch' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^smtpUrl: the mail server URL does not parse/);
    const http = await write.post('/mail/settings', { smtpUrl: 'http://mail.example.ch', from: 'ja' });
    expect(http.status).toBe(400);
    expect(http.body.message).toMatch(/smtpUrl: .*smtp:\/\/ or smtps:\/\/.*; from: must be an e-mail address/);
  });

  it('keeps the password sealed in the database and never answers it', async () => {
    const other = server.createOrg();
    const client = api(server.url, other.writeKey);
    const res = await client.post('/mail/settings', { smtpUrl: 'smtp://laden:geheim-123@127.0.0.1:1', from: 'Laden <laden@example.ch>' });
    expect(res).toMatchObject({ status: 200, body: { success: true } });
    const row = server.sqlite().prepare('SELECT * FROM mail_settings WHERE org_id = ?').get(other.id) as Record<string, string>;
    expect(JSON.stringify(row)).not.toContain('geheim-123');
    expect(row.sealed_smtp_url).toMatch(/^sealed:v1:/);
  });
});

describe('POST /mail/test', () => {
  it('refuses an address that is not one', async () => {
    const res = await write.post('/mail/test', { to: 'ja' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('to: must be an e-mail address such as office@example.ch, not "ja"');
  });

  it('keeps the mail queued, saying why, while no mail server is set', async () => {
    const id = await queueTest(write, 'owner@example.ch');
    const row = await mailRow(write, id, (m) => m.attempts >= 1);
    expect(row).toMatchObject({ state: 'queued', kind: 'test', to: 'owner@example.ch', sentAt: null });
    expect(row.lastError).toMatch(/no mail server is set/);
  });
});

describe('delivery', () => {
  let receiver: SmtpReceiver;
  let client: Api;
  let own: TestOrg;

  beforeAll(async () => {
    receiver = await startSmtpReceiver({ tls: cert });
    own = server.createOrg();
    client = api(server.url, own.writeKey);
    expect((await client.post('/mail/settings', { smtpUrl: receiver.url, from: 'Laden Bern <laden@example.ch>' })).status).toBe(200);
  });

  afterAll(async () => {
    await receiver.close();
  });

  it('sends over STARTTLS with a stable Message-ID and marks the mail sent', async () => {
    const id = await queueTest(client, 'owner@example.ch');
    const [mail] = await receiver.waitFor((mails) => mails.length >= 1, 'the test mail');
    expect(mail).toMatchObject({ from: '"Laden Bern" <laden@example.ch>', to: ['owner@example.ch'], subject: 'Test mail from the store server' });
    expect(mail!.messageId).toBe(`<${id}@store-server.mail>`);
    const row = await mailRow(client, id, (m) => m.state === 'sent');
    expect(row).toMatchObject({ attempts: 1, lastError: null });
  });

  it('marks a mail failed with the server\'s words on a permanent refusal', async () => {
    receiver.behave({ kind: 'refuse-recipient', code: 550, message: 'No such mailbox here' });
    const id = await queueTest(client, 'nobody@example.ch');
    const row = await mailRow(client, id, (m) => m.state === 'failed');
    receiver.behave({ kind: 'accept' });
    expect(row.attempts).toBe(1);
    expect(row.lastError).toMatch(/550.*No such mailbox here/);
  });

  it('retries a temporary refusal and a connection cut in the middle of DATA, then delivers once', async () => {
    receiver.behave({ kind: 'refuse-recipient', code: 451, message: 'Greylisted, come back later' });
    const refused = await queueTest(client, 'grey@example.ch');
    const first = await mailRow(client, refused, (m) => m.attempts >= 1);
    expect(first.lastError).toMatch(/451.*Greylisted/);
    receiver.behave({ kind: 'drop-in-data' });
    const dropped = await queueTest(client, 'dropped@example.ch');
    const cut = await mailRow(client, dropped, (m) => m.attempts >= 1);
    expect(cut.state).toBe('queued');
    receiver.behave({ kind: 'accept' });
    await mailRow(client, refused, (m) => m.state === 'sent');
    await mailRow(client, dropped, (m) => m.state === 'sent');
    const arrived = receiver.mails.filter((m) => m.to[0] === 'grey@example.ch' || m.to[0] === 'dropped@example.ch');
    expect(arrived.map((m) => m.to[0]).sort()).toEqual(['dropped@example.ch', 'grey@example.ch']);
  });

  it('CLI: mail test queues a mail the running server sends; mail list shows it; a bad address exits with the reason', async () => {
    const queued = await runCli(server.dataDir, ['mail', 'test', 'cli@example.ch', '--org', own.id, '--json']);
    expect(queued.status, queued.stderr).toBe(0);
    expect(queued.json).toMatchObject({ kind: 'test', to: 'cli@example.ch', state: 'queued' });
    await receiver.waitFor((mails) => mails.some((m) => m.to[0] === 'cli@example.ch'), 'the mail the CLI queued');
    await mailRow(client, queued.json.id, (m) => m.state === 'sent');
    const listed = await runCli(server.dataDir, ['mail', 'list', '--org', own.id, '--json']);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.json.data.find((m: any) => m.id === queued.json.id)).toMatchObject({ state: 'sent', attempts: 1 });
    const text = await runCli(server.dataDir, ['mail', 'list', '--org', own.id]);
    expect(text.stdout).toMatch(/cli@example\.ch\s+sent/);
    const bad = await runCli(server.dataDir, ['mail', 'test', 'ja', '--org', own.id]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/e-mail address/);
    const several = await runCli(server.dataDir, ['mail', 'list']);
    expect(several.stderr).toMatch(/--org/);
  });

  it('pages the queue newest first', async () => {
    const ids = [await queueTest(client, 'p1@example.ch'), await queueTest(client, 'p2@example.ch'), await queueTest(client, 'p3@example.ch')];
    const first = await client.get('/mail?limit=2');
    expect(first.body.meta).toMatchObject({ returned: 2, limit: 2 });
    expect(first.body.data.map((m: any) => m.id)).toEqual([ids[2], ids[1]]);
    const second = await client.get(`/mail?limit=2&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`);
    expect(second.body.data[0].id).toBe(ids[0]);
    expect((await client.get('/mail?cursor=nonsense')).status).toBe(400);
  });
});

describe('bad mail servers', () => {
  it('smtps:// works, and a certificate nobody signed leaves the mail queued with the reason', async () => {
    const secure = await startSmtpReceiver({ tls: cert, secure: true });
    const own = server.createOrg();
    const client = api(server.url, own.writeKey);
    await client.post('/mail/settings', { smtpUrl: secure.url, from: 'laden@example.ch' });
    const id = await queueTest(client, 'owner@example.ch');
    await secure.waitFor((mails) => mails.length === 1, 'the mail over smtps');
    await mailRow(client, id, (m) => m.state === 'sent');
    await secure.close();

    const untrusted = await localCertificate();
    const strange = await startSmtpReceiver({ tls: untrusted });
    await client.post('/mail/settings', { smtpUrl: strange.url, from: 'laden@example.ch' });
    const refused = await queueTest(client, 'owner@example.ch');
    const row = await mailRow(client, refused, (m) => m.attempts >= 1);
    expect(row.state).toBe('queued');
    expect(row.lastError).toMatch(/certificate/i);
    expect(strange.mails).toEqual([]);
    await strange.close();
  });

  it('a server that never greets or answers slowly times out without holding up requests', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const own = server.createOrg();
    const client = api(server.url, own.writeKey);
    await client.post('/mail/settings', { smtpUrl: `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`, from: 'laden@example.ch' });
    const id = await queueTest(client, 'owner@example.ch');
    // While the sender waits for a greeting, the API answers.
    expect((await client.get('/mail')).status).toBe(200);
    const row = await mailRow(client, id, (m) => m.attempts >= 1);
    expect(row.state).toBe('queued');
    expect(row.lastError).toMatch(/ETIMEDOUT|timeout/i);
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });
});
