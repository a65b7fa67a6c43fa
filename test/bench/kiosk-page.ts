/**
 * Code the kiosk benchmark runs inside the page, as source text: timing taken
 * in the page itself leaves the automation protocol's round trips out.
 * "Painted" is the second animation frame after the DOM change, when the
 * first frame holding it has been drawn.
 */

/** Init script: records when the shop screen is first painted, from the start of navigation. */
export const PAGE_FIRST_SCREEN = `
new MutationObserver((_, observer) => {
  if (!document.querySelector('[data-screen="shop"]')) return;
  observer.disconnect();
  requestAnimationFrame(() => requestAnimationFrame(() => { window.__firstScreen = performance.now(); }));
}).observe(document, { childList: true, subtree: true });`;

const PAINTED = `const painted = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
const until = (test) => new Promise((resolve) => {
  if (test()) return resolve();
  const o = new MutationObserver(() => { if (test()) { o.disconnect(); resolve(); } });
  o.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
});
const config = window.kioskBridge.config;
const api = (path) => fetch(config.apiBaseUrl + path, { headers: { authorization: 'Bearer ' + config.key } }).then((r) => r.json());`;

/** Each code as a scanner burst; a cart of 20 lines is cleared before the next one. */
export const PAGE_SCANS = `async (codes) => {
  ${PAINTED}
  const ui = [], raw = [];
  for (const [i, code] of codes.entries()) {
    if (i % 20 === 0) { document.querySelector('.cart .actions button.secondary')?.click(); await painted(); }
    document.querySelector('.message').textContent = '';
    const before = document.querySelector('[data-total]')?.textContent + '|' + document.querySelectorAll('.cart li.line').length + '|' + document.querySelector('.message')?.textContent;
    const start = performance.now();
    for (const key of [...code, 'Enter']) document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
    await until(() => document.querySelector('[data-total]')?.textContent + '|' + document.querySelectorAll('.cart li.line').length + '|' + document.querySelector('.message')?.textContent !== before || document.querySelector('[data-dialog]'));
    await painted();
    ui.push(performance.now() - start);
    document.querySelector('[data-dialog="choose"] button.choice')?.click();
    const t = performance.now();
    await api('/products?barcode=' + encodeURIComponent(code));
    raw.push(performance.now() - t);
  }
  return { ui, fetch: raw };
}`;

/** Each word typed at 150 ms per letter; every keystroke from two letters on is timed until its results are painted. */
export const PAGE_TYPING = `async (words, store) => {
  ${PAINTED}
  const box = document.querySelector('input.search');
  const results = document.querySelector('.results');
  const ui = [], raw = [];
  for (const word of words) {
    box.value = '';
    box.dispatchEvent(new Event('input', { bubbles: true }));
    for (let n = 1; n <= word.length; n++) {
      const q = word.slice(0, n);
      const start = performance.now();
      box.value = q;
      box.dispatchEvent(new Event('input', { bubbles: true }));
      if (n >= 2) {
        await until(() => results.dataset.query === q);
        await painted();
        ui.push(performance.now() - start);
        const t = performance.now();
        await api('/products?q=' + encodeURIComponent(q) + '&store=' + encodeURIComponent(store) + '&limit=20');
        raw.push(performance.now() - t);
      }
      const wait = 150 - (performance.now() - start);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  }
  return { ui, fetch: raw };
}`;
