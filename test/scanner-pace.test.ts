import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserHarness } from './support/browser-harness.js';
import { CODES } from './support/kiosk-catalog.js';

const h = useBrowserHarness({});

/** A seeded generator, so a failing run replays the same scans. */
function random(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31), state / 2 ** 31);
}

interface Pace {
  /** Milliseconds between two keys of a code. */
  gapMs: number;
  /** How far a gap may stray either way. */
  jitterMs: number;
  /** One gap in this many scans is a stall of 150 to 400 ms, as a loaded PC delivers keys. */
  stallEvery: number;
}

/**
 * Types `codes` as a wedge scanner does, each key with the time the keyboard
 * gave it: the page's clock for the key is the scanner's, however busy the
 * page is when the key is handled.
 */
async function replayScans(cdp: CDPSession, codes: string[], pace: Pace, next: () => number): Promise<void> {
  let at = Date.now() / 1000;
  const sent: Promise<unknown>[] = [];
  for (const [n, code] of codes.entries()) {
    const stallAt = n % pace.stallEvery === 0 ? 1 + Math.floor(next() * (code.length - 1)) : -1;
    for (const [i, key] of [...code, 'Enter'].entries()) {
      const gap = i === stallAt ? 150 + next() * 250 : Math.max(1, pace.gapMs + (next() * 2 - 1) * pace.jitterMs);
      at += gap / 1000;
      const text = key === 'Enter' ? '\r' : key;
      sent.push(cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key, text, timestamp: at, ...(key === 'Enter' ? { code: 'Enter', windowsVirtualKeyCode: 13 } : {}) }));
    }
    // A person puts the next item under the scanner.
    at += 0.4 + next() * 0.6;
  }
  await Promise.all(sent);
}

const quantities = (page: Page) => page.locator('.cart li.line [data-quantity]').allTextContents();
const sum = (texts: string[]) => texts.reduce((total, text) => total + Number(text), 0);

describe('scanners as they are', () => {
  it.each([
    ['5 ms', { gapMs: 5, jitterMs: 3, stallEvery: 4 }],
    ['60 ms', { gapMs: 60, jitterMs: 18, stallEvery: 6 }],
  ] as const)('takes 100 scans at %s per key, with stalls, on a CPU slowed to a quarter, as 100 whole codes', async (_, pace) => {
    const page = await h.kiosk({});
    const looked: string[] = [];
    page.on('request', (req) => {
      const code = new URL(req.url()).searchParams.get('barcode');
      if (code !== null) looked.push(code);
    });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const products = [CODES.milk, CODES.chocolate];
    const codes = Array.from({ length: 100 }, (_, i) => products[i % products.length]!);

    await replayScans(cdp, codes, pace, random(pace.gapMs));

    await expect.poll(async () => sum(await quantities(page)), { timeout: 60_000 }).toBe(100);
    expect(looked.filter((code) => !products.includes(code))).toEqual([]);
    expect(await page.locator('.message', { hasText: 'Kein Produkt' }).count()).toBe(0);
  }, 150_000);
});
