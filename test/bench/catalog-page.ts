/**
 * The staff page's report of a checked file, timed in the page: from the
 * check's answer arriving to the report's first painted frame (reading the
 * answer, building the report and laying it out), for a file whose every
 * line has a problem.
 */
import { launchChromium } from '../support/kiosk.js';

/** Init script: notes when the catalog check's answer arrives, and when the report is painted after it. */
const TIMER = `
const fetched = window.fetch;
window.fetch = async (...args) => {
  const res = await fetched(...args);
  if (String(args[0]).includes('/catalog/import')) window.__answered = performance.now();
  return res;
};
new MutationObserver(() => {
  if (window.__answered === undefined || window.__painted !== undefined || !document.querySelector('#catalog-files [data-counts]')) return;
  window.__painted = 0;
  requestAnimationFrame(() => requestAnimationFrame(() => { window.__painted = performance.now(); }));
}).observe(document, { childList: true, subtree: true });`;

export interface ReportTiming {
  /** Milliseconds from the answer's arrival to the report's first painted frame. */
  renderMs: number;
  /** Elements of the report. */
  elements: number;
}

/** Checks each file on the staff page of the server at `origin`, signed in with `key`, and times the report of each. */
export async function timeFileReports(origin: string, key: string, files: { name: string; text: string }[]): Promise<ReportTiming[]> {
  const browser = await launchChromium();
  try {
    const timings: ReportTiming[] = [];
    for (const file of files) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-CH' });
      await context.addInitScript(TIMER);
      const page = await context.newPage();
      page.setDefaultTimeout(120_000);
      await page.goto(`${origin}/status`);
      await page.locator('#staff-key').fill(key);
      await page.locator('#sign-in button[type="submit"]').click();
      await page.locator('#catalog-files input[type="file"]').waitFor();
      await page.locator('#catalog-files input[type="file"]').setInputFiles({ name: file.name, mimeType: 'text/csv', buffer: Buffer.from(file.text) });
      await page.waitForFunction(() => ((globalThis as unknown as { __painted?: number }).__painted ?? 0) > 0);
      timings.push(
        await page.evaluate(() => {
          const w = globalThis as unknown as { __painted: number; __answered: number; document: { querySelectorAll(s: string): { length: number } } };
          return { renderMs: w.__painted - w.__answered, elements: w.document.querySelectorAll('#catalog-files [data-report] *').length };
        }),
      );
      await context.close();
    }
    return timings;
  } finally {
    await browser.close();
  }
}
