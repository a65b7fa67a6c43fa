import { afterAll, describe, expect, it } from 'vitest';
import { api } from './support/api.js';
import { runCli } from './support/cli.js';
import { startChildServer } from './support/child-server.js';
import { runProcess } from './support/processes.js';
import { compiled } from './support/compiled-product.js';
import { startSmtpReceiver, type SmtpReceiver } from './support/smtp-receiver.js';
import { makeDataDir, startTestServer } from './support/server.js';
import { PROJECT_ROOT } from '../main/version.js';

const receivers: SmtpReceiver[] = [];
afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
});

async function receiver(port?: number): Promise<SmtpReceiver> {
  const started = await startSmtpReceiver(port === undefined ? {} : { port });
  receivers.push(started);
  return started;
}

/** Creates an organization in the data folder with the CLI and answers its write key. */
async function orgIn(dataDir: string): Promise<string> {
  const created = await runProcess(process.execPath, [compiled('main/cli.js'), 'org', 'create', '--name', 'Laden', '--json'], { cwd: PROJECT_ROOT, env: { DATA_DIR: dataDir } });
  expect(created.status, created.stderr).toBe(0);
  return JSON.parse(created.stdout).writeKey as string;
}

describe('settings the server cannot use', () => {
  it('npm start refuses an SMTP_URL that does not parse and a MAIL_FROM that is no address, in one line', async () => {
    for (const [env, message] of [
      [{ SMTP_URL: 'smtp//mail example', MAIL_FROM: 'laden@example.ch' }, /SMTP_URL: the mail server URL does not parse/],
      [{ SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'ja' }, /MAIL_FROM must be an e-mail address/],
      [{ SMTP_URL: 'smtp://127.0.0.1:2525' }, /SMTP_URL is set but MAIL_FROM is not/],
    ] as const) {
      const started = await runProcess(process.execPath, [compiled('main/start.js')], {
        cwd: PROJECT_ROOT,
        env: { DATA_DIR: makeDataDir(), PORT: '0', LOG_LEVEL: 'silent', ...env },
      });
      expect(started.status).not.toBe(0);
      expect(started.stderr).toMatch(message);
      expect(started.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe('a power cut around sending', () => {
  it('a mail queued before the cut is sent after the restart, once; one cut after the acceptance arrives again with the same Message-ID', async () => {
    const smtp = await receiver();
    const dataDir = makeDataDir();
    const key = await orgIn(dataDir);
    const env = { SMTP_URL: smtp.url, MAIL_FROM: 'laden@example.ch', NODE_ENV: 'test' };

    let child = await startChildServer(dataDir, undefined, { ...env, STORE_SERVER_CRASH_AT: 'before-mail-sent' });
    const exited = new Promise((resolve) => child.child.once('exit', resolve));
    const queued = await api(child.url, key).post('/mail/test', { to: 'before@example.ch' });
    expect(queued.status).toBe(202);
    await exited;
    expect(smtp.mails).toEqual([]);
    child = await startChildServer(dataDir, undefined, env);
    await smtp.waitFor((mails) => mails.length === 1, 'the mail queued before the cut');
    const sent = await api(child.url, key).get('/mail');
    expect(sent.body.data[0]).toMatchObject({ id: queued.body.data.id, state: 'sent' });
    await child.crash();

    child = await startChildServer(dataDir, undefined, { ...env, STORE_SERVER_CRASH_AT: 'after-mail-accepted' });
    const cut = new Promise((resolve) => child.child.once('exit', resolve));
    const second = await api(child.url, key).post('/mail/test', { to: 'after@example.ch' });
    await cut;
    child = await startChildServer(dataDir, undefined, env);
    const mails = await smtp.waitFor((all) => all.filter((m) => m.to[0] === 'after@example.ch').length === 2, 'the mail sent again after the cut');
    const copies = mails.filter((m) => m.to[0] === 'after@example.ch');
    expect(new Set(copies.map((m) => m.messageId))).toEqual(new Set([`<${second.body.data.id}@store-server.mail>`]));
    expect(mails.filter((m) => m.to[0] === 'before@example.ch')).toHaveLength(1);
    const listed = await api(child.url, key).get('/mail');
    expect(listed.body.data.find((m: any) => m.id === second.body.data.id)).toMatchObject({ state: 'sent' });
    await child.crash();
  });
});

describe('a week without the mail server', () => {
  it('keeps every mail queued, retrying, and delivers each once the server is back', async () => {
    const away = await receiver();
    const port = away.port;
    await away.close();
    receivers.splice(receivers.indexOf(away), 1);
    let now = Date.parse('2026-11-20T08:00:00.000Z');
    const server = await startTestServer({ clock: { now: () => new Date(now) }, mailSender: { idleCheckMs: 20, retryBaseMs: 30_000, retryMaxMs: 3_600_000 } });
    try {
      const org = server.createOrg();
      const write = api(server.url, org.writeKey);
      await write.post('/mail/settings', { smtpUrl: `smtp://127.0.0.1:${port}`, from: 'laden@example.ch' });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await write.post('/mail/test', { to: `owner${i}@example.ch` })).body.data.id);
      const fewestAttempts = async () => Math.min(...((await write.get('/mail')).body.data as any[]).map((m) => m.attempts));
      const attemptsReach = async (count: number) => {
        while ((await fewestAttempts()) < count) await new Promise((r) => setTimeout(r, 20));
      };
      for (let day = 1; day <= 7; day++) {
        // Every mail tried as often as the days so far, so none is in flight when the clock moves.
        await attemptsReach(day);
        now += 86_400_000;
      }
      // Each day every mail is tried again: its wait never exceeds an hour.
      await attemptsReach(8);
      const week = (await write.get('/mail')).body.data as any[];
      for (const mail of week) expect(mail).toMatchObject({ state: 'queued', attempts: 8, lastError: expect.stringMatching(/ECONNREFUSED/) });

      const back = await receiver(port);
      now += 3_600_000;
      const mails = await back.waitFor((all) => all.length === 5, 'every mail after the week');
      expect(mails.map((m) => m.to[0]).sort()).toEqual(ids.map((_, i) => `owner${i}@example.ch`));
      const final = (await write.get('/mail')).body.data as any[];
      expect(final.every((m) => m.state === 'sent')).toBe(true);
    } finally {
      await server.destroy();
    }
  });
});

describe('a mail server that keeps refusing', () => {
  it('does not make the queue grow: failed mails go with the purge 90 days after they were queued, queued ones stay', async () => {
    const smtp = await receiver();
    smtp.behave({ kind: 'refuse-recipient', code: 550, message: 'Mailbox unavailable' });
    let now = Date.now() - 100 * 86_400_000;
    const server = await startTestServer({ clock: { now: () => new Date(now) }, mailSender: { idleCheckMs: 20, retryBaseMs: 50, retryMaxMs: 100 } });
    const org = server.createOrg();
    const write = api(server.url, org.writeKey);
    await write.post('/mail/settings', { smtpUrl: smtp.url, from: 'laden@example.ch' });
    const old = (await write.post('/mail/test', { to: 'gone@example.ch' })).body.data.id;
    while (((await write.get('/mail')).body.data as any[]).find((m) => m.id === old).state !== 'failed') await new Promise((r) => setTimeout(r, 20));
    now = Date.now() - 10 * 86_400_000;
    const recent = (await write.post('/mail/test', { to: 'recent@example.ch' })).body.data.id;
    while (((await write.get('/mail')).body.data as any[]).find((m) => m.id === recent).state !== 'failed') await new Promise((r) => setTimeout(r, 20));
    await write.post('/mail/settings', { smtpUrl: 'smtp://127.0.0.1:1', from: 'laden@example.ch' });
    now = Date.now() - 200 * 86_400_000;
    const waiting = (await write.post('/mail/test', { to: 'waiting@example.ch' })).body.data.id;
    await server.stop();
    const purged = await runCli(server.dataDir, ['purge', 'run', '--json']);
    expect(purged.status, purged.stderr).toBe(0);
    expect(purged.json.mail).toBe(1);
    const left = server.sqlite().prepare('SELECT id, state FROM mail_queue ORDER BY created_at').all();
    expect(left).toEqual([
      { id: waiting, state: 'queued' },
      { id: recent, state: 'failed' },
    ]);
    await server.destroy();
  });
});
