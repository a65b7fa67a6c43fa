// Sync section of the status page: GET /sync and GET /sync/parked with a read key
// the operator types in (kept for this browser tab only).
const api = new URL('api/v1', window.location.href).href;
const KEY = 'sync-read-key';
const text = (id, value) => (document.getElementById(id).textContent = value ?? '–');

async function get(path, key) {
  const res = await fetch(`${api}${path}`, { cache: 'no-store', headers: { authorization: `Bearer ${key}` } });
  if (!res.ok) throw new Error(res.status === 403 ? 'key refused' : `answered ${res.status}`);
  return (await res.json()).data;
}

async function refresh() {
  const key = sessionStorage.getItem(KEY);
  if (!key) return;
  document.getElementById('sync-status').hidden = false;
  try {
    const [status, parked] = await Promise.all([get('/sync', key), get('/sync/parked', key)]);
    text('sync-state', status.state);
    text('sync-upstream', status.upstream ?? 'not configured');
    text('sync-pending', status.oldestPendingAt ? `${status.pending} (oldest ${status.oldestPendingAt})` : String(status.pending));
    text('sync-parked', String(status.parked));
    text('sync-last-push', status.lastPushAt ?? 'never');
    text('sync-last-pull', status.lastPullAt ?? 'never');
    text('sync-last-full-pull', status.lastFullPullAt ?? 'never');
    text('sync-error', status.lastError ?? 'none');
    const list = document.getElementById('sync-parked-list');
    list.replaceChildren(
      ...parked.map((entry) => {
        const item = document.createElement('li');
        item.textContent = `#${entry.id} ${entry.operation} ${entry.resource} ${entry.resourceId}: ${entry.status} ${entry.message} (${entry.parkedAt})`;
        return item;
      }),
    );
  } catch (err) {
    text('sync-state', err.message);
  }
}

document.getElementById('sync-key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  sessionStorage.setItem(KEY, document.getElementById('sync-key').value.trim());
  refresh();
});

refresh();
setInterval(refresh, 5000);
