// Status page of the local server: polls the key-free health endpoint.
const api = new URL('api/v1', window.location.href).href;
document.getElementById('api').textContent = api;

async function refresh() {
  const status = document.getElementById('status');
  try {
    const res = await fetch(`${api}/health`, { cache: 'no-store' });
    const health = await res.json();
    status.textContent = health.status === 'ok' ? 'running' : health.status;
    status.className = 'ok';
    document.getElementById('version').textContent = health.version;
    document.getElementById('search').textContent = health.search === 'ready' ? 'ready' : 'building index…';
  } catch {
    status.textContent = 'not answering';
    status.className = 'down';
  }
}

refresh();
setInterval(refresh, 5000);
