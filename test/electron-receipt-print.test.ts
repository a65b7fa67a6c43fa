import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECEIPT_PRINT_CHANNEL, RECEIPT_PRINTED_CHANNEL } from '../main/electron/receipt-print.js';
import { standInApps } from './support/electron-stand-in.js';

const { start, tempDir } = standInApps();

/** Starts the app with a kiosk.json; the page's print requests are sent like the preload sends them. */
async function startWith(kiosk: Record<string, unknown>) {
  const dataDir = tempDir();
  writeFileSync(join(dataDir, 'kiosk.json'), JSON.stringify({ key: 'wk_x', storeId: 's1', ...kiosk }));
  const app = await start({ DATA_DIR: dataDir });
  const printed: { options: Record<string, unknown> }[] = [];
  const replies: unknown[] = [];
  let outcome: [boolean, string] = [true, ''];
  const request = (url: string, body: unknown) =>
    app.ipcMain.emit(
      RECEIPT_PRINT_CHANNEL,
      {
        senderFrame: { url, parent: null },
        sender: { print: (options: Record<string, unknown>, done: (success: boolean, reason: string) => void) => (printed.push({ options }), done(...outcome)) },
        reply: (channel: string, answer: unknown) => replies.push([channel, answer]),
      },
      body,
    );
  return { ...app, printed, replies, request, failWith: (reason: string) => (outcome = [false, reason]) };
}

describe('receipts on the PC\'s printer', () => {
  it('prints the page silently as an 80 mm page as long as the receipt, on the printer kiosk.json names', async () => {
    const app = await startWith({ printer: { type: 'system', deviceName: 'EPSON TM-T20III' } });
    app.request(`${app.origin}/`, { id: 1, heightMm: 182.4 });
    expect(app.printed).toEqual([
      {
        options: {
          silent: true,
          printBackground: false,
          color: false,
          margins: { marginType: 'none' },
          pageSize: { width: 80_000, height: 183_000 },
          deviceName: 'EPSON TM-T20III',
        },
      },
    ]);
    expect(app.replies).toEqual([[RECEIPT_PRINTED_CHANNEL, { id: 1, printed: true, message: null }]]);
  });

  it('tells the page when the printer fails, and keeps a receipt page within sane lengths', async () => {
    const app = await startWith({ printer: { type: 'system' } });
    app.failWith('Printer is out of paper');
    app.request(`${app.origin}/`, { id: 7, heightMm: 1e9 });
    app.request(`${app.origin}/`, { id: 8, heightMm: 'long' });
    expect(app.printed.map((p) => p.options.pageSize)).toEqual([
      { width: 80_000, height: 3_000_000 },
      { width: 80_000, height: 60_000 },
    ]);
    expect(app.printed[0]!.options.deviceName).toBeUndefined();
    expect(app.replies[0]).toEqual([RECEIPT_PRINTED_CHANNEL, { id: 7, printed: false, message: 'The printer (default) did not print: Printer is out of paper' }]);
  });

  it('answers "not printed" without a printer of this PC in kiosk.json, and ignores frames of other origins', async () => {
    const app = await startWith({ printer: { type: 'network', id: 'printer-by-the-door' } });
    app.request(`${app.origin}/`, { id: 2, heightMm: 100 });
    app.request('https://example.com/', { id: 3, heightMm: 100 });
    expect(app.printed).toEqual([]);
    expect(app.replies).toEqual([[RECEIPT_PRINTED_CHANNEL, { id: 2, printed: false, message: expect.stringContaining('"type": "system"') }]]);
  });
});
