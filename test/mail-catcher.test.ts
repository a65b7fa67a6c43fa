import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../main/version.js';
import { api } from './support/api.js';
import { freePort } from './support/processes.js';
import { startTestServer, type TestServer } from './support/server.js';

let catcher: ChildProcess;
let port: number;
const lines: any[] = [];
const arrivals = new Set<() => void>();
let server: TestServer;

/** `npm run -s mail:catch -- --port <p>`, as the README's quick start runs it; resolves once it listens. */
async function startCatcher(): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    const child = spawn('npm', ['run', '-s', 'mail:catch', '--', '--port', String(port)], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const ready = await new Promise<boolean>((resolve) => {
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        if (chunk.includes('SMTP on')) resolve(true);
      });
      child.once('exit', () => resolve(false));
    });
    if (ready) {
      catcher = child;
      createInterface({ input: child.stdout! }).on('line', (line) => {
        lines.push(JSON.parse(line));
        for (const wake of arrivals) wake();
      });
      return;
    }
    // The port after the free one was taken: another pair.
    if (attempt === 5) throw new Error('the mail catcher did not start');
  }
}

function nextLine(count: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (lines.length >= count) {
        arrivals.delete(check);
        resolve();
      }
    };
    arrivals.add(check);
    check();
  });
}

beforeAll(async () => {
  await startCatcher();
  server = await startTestServer({ mailSender: { idleCheckMs: 50 } });
});

afterAll(async () => {
  await server.destroy();
  if (catcher.pid !== undefined && catcher.exitCode === null) {
    const gone = new Promise((resolve) => catcher.once('exit', resolve));
    process.kill(-catcher.pid, 'SIGTERM');
    await gone;
  }
});

describe('npm run mail:catch', () => {
  it('prints each mail as one line of JSON and answers the newest on GET /mails at the next port', async () => {
    const org = server.createOrg();
    const write = api(server.url, org.writeKey);
    expect((await write.post('/mail/settings', { smtpUrl: `smtp://127.0.0.1:${port}`, from: 'Laden <laden@example.ch>' })).status).toBe(200);
    const queued = await write.post('/mail/test', { to: 'owner@example.ch' });
    expect(queued.status).toBe(202);
    await nextLine(1);
    expect(lines[0]).toMatchObject({
      messageId: `<${queued.body.data.id}@store-server.mail>`,
      from: '"Laden" <laden@example.ch>',
      to: ['owner@example.ch'],
      subject: 'Test mail from the store server',
      attachments: [],
    });
    expect(lines[0].text).toMatch(/mail server settings work/);
    const kept = await fetch(`http://127.0.0.1:${port + 1}/mails`).then((r) => r.json());
    expect(kept).toEqual(lines);
  });
});
