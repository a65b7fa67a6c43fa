// Receipt printer section of the status page: GET /printers needs no key, so a
// fault (switched off, out of paper) shows to whoever looks at this page.
const api = new URL('api/v1', window.location.href).href;

const STATE_TEXT = { ready: 'ready', offline: 'offline', paperOut: 'out of paper', error: 'fault' };

async function refresh() {
  const list = document.getElementById('printer-list');
  try {
    const res = await fetch(`${api}/printers`, { cache: 'no-store' });
    const printers = (await res.json()).data;
    document.getElementById('printers-none').hidden = printers.length > 0;
    list.replaceChildren(
      ...printers.map((p) => {
        const item = document.createElement('li');
        item.dataset.printer = p.printer;
        item.dataset.state = p.state;
        item.className = p.state === 'ready' ? 'ok' : 'down';
        const printed = p.lastPrintedAt ? `last receipt printed ${p.lastPrintedAt}` : 'no receipt printed yet';
        item.textContent = `${p.printer}: ${STATE_TEXT[p.state] ?? p.state}${p.message ? ` – ${p.message}` : ''} (${printed})`;
        return item;
      }),
    );
  } catch {
    list.replaceChildren();
  }
}

refresh();
setInterval(refresh, 5000);
