import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startMailCatcher, type CaughtMail } from '../main/mail-catcher/catcher.js';
import { startServer } from '../main/server.js';
import { VERSION } from '../main/version.js';

/**
 * Draws docs/screens/alert-mail-de.png and alert-resolved-mail-de.png: a hub
 * on a fresh data folder, sending to the mail catcher, gets one heartbeat of
 * a store PC and then none for ALERT_AFTER_MS (here 1 s), so it mails the
 * store's admin a `store-pc-silent` alert; a second heartbeat ends it. Each
 * mail, as the catcher received it, is drawn as a plain page in Chromium.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCREENS = join(ROOT, 'docs', 'screens');
const PICTURES = { alert: join(SCREENS, 'alert-mail-de.png'), resolved: join(SCREENS, 'alert-resolved-mail-de.png') };
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A mail as a mail program shows it: the header lines, then the text. */
const mailPage = (mail: CaughtMail) => `<!doctype html><html><head><meta charset="utf-8"><style>
  body { font: 15px/1.45 "DejaVu Sans", sans-serif; margin: 0; background: #f3f3f3; }
  main { margin: 16px; background: #fff; border: 1px solid #ccc; border-radius: 6px; }
  table { border-collapse: collapse; width: 100%; background: #fafafa; border-bottom: 1px solid #ddd; }
  th { text-align: right; color: #555; font-weight: normal; padding: 6px 10px; width: 90px; vertical-align: top; }
  td { padding: 6px 10px 6px 0; }
  .subject { font-weight: bold; }
  pre { font: inherit; white-space: pre-wrap; margin: 0; padding: 16px 20px; }
</style></head><body><main><table>
  <tr><th>From</th><td>${escape(mail.from)}</td></tr>
  <tr><th>To</th><td>${escape(mail.to.join(', '))}</td></tr>
  <tr><th>Subject</th><td class="subject">${escape(mail.subject)}</td></tr>
  ${Object.entries(mail.headers).map(([name, value]) => `<tr><th>${escape(name)}</th><td>${escape(value)}</td></tr>`).join('')}
</table><pre>${escape(mail.text)}</pre></main></body></html>`;

export async function renderAlertMails(): Promise<void> {
  const mails: CaughtMail[] = [];
  const waiters = new Set<() => void>();
  const catcher = await startMailCatcher(0, (mail) => {
    mails.push(mail);
    for (const wake of waiters) wake();
  });
  const mailCount = (count: number) =>
    new Promise<void>((resolve, reject) => {
      const limit = setTimeout(() => reject(new Error(`no mail ${count} within 30 s`)), 30_000);
      const check = () => {
        if (mails.length < count) return;
        clearTimeout(limit);
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  const dataDir = mkdtempSync(join(tmpdir(), 'alert-mails-'));
  const hub = await startServer(
    { host: '127.0.0.1', port: 0, dataDir, logLevel: 'silent' },
    { alertWatch: { alertAfterMs: 1_000, checkMs: 100 }, mailSender: { idleCheckMs: 100 }, diskFree: async () => 1024 ** 4 },
  );
  try {
    const org = hub.inProcess.services.organizations.create({ name: 'Hofladen', features: [] });
    const call = async (path: string, body: unknown) => {
      const res = await fetch(`${hub.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${org.writeKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as { id?: string };
    };
    await call('/mail/settings', { smtpUrl: `smtp://127.0.0.1:${catcher.smtpPort}`, from: 'Zentrale Hofladen <zentrale@hofladen.example>' });
    const { id: store } = await call('/stores', { name: 'Laden Bern', languageMain: 'de', adminMail: 'chefin@hofladen.example', timeZone: 'Europe/Zurich' });
    const heartbeat = { device: 'kasse-bern-0001', name: 'Kasse Bern', version: VERSION, stores: [store], lastPushAt: null, lastPullAt: null, pending: 0, parked: 0, oldestPendingAt: null, lastSaleAt: null, printers: [], diskFreeBytes: null, databaseBytes: null };
    await call('/fleet/heartbeat', heartbeat);
    await mailCount(1);
    await call('/fleet/heartbeat', heartbeat);
    await mailCount(2);
  } finally {
    await hub.close();
    await catcher.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 760, height: 300 } });
    for (const [mail, file] of [[mails[0]!, PICTURES.alert], [mails[1]!, PICTURES.resolved]] as const) {
      await page.setContent(mailPage(mail));
      await page.screenshot({ path: file, fullPage: true });
    }
  } finally {
    await browser.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await renderAlertMails();
  console.log(`wrote ${PICTURES.alert} and ${PICTURES.resolved}`);
}
