// Status page of the local server: polls the key-free health endpoint.
const api = new URL('api/v1', window.location.href).href;
document.getElementById('api').textContent = api;

const UPDATE_STATES = {
  off: 'no update source set',
  idle: 'up to date',
  checking: 'checking for an update…',
  downloading: 'downloading {v}…',
  waiting: '{v} downloaded; installs when the kiosk is idle or at the night hour',
  installing: 'installing {v}…',
  failed: 'failed',
};

async function refreshUpdate() {
  const res = await fetch(`${api}/update`, { cache: 'no-store' });
  const update = (await res.json()).data;
  let text = UPDATE_STATES[update.state].replace('{v}', update.availableVersion ?? '');
  if (update.state === 'idle' && update.availableVersion) text = `${update.availableVersion} available`;
  if (update.message) text += `: ${update.message}`;
  if (update.lastCheckAt) text += ` (last check ${new Date(update.lastCheckAt).toLocaleString()})`;
  document.getElementById('update').textContent = text;
}

async function refresh() {
  const status = document.getElementById('status');
  try {
    const res = await fetch(`${api}/health`, { cache: 'no-store' });
    const health = await res.json();
    status.textContent = health.status === 'ok' ? 'running' : health.status;
    status.className = 'ok';
    document.getElementById('version').textContent = health.version;
    document.getElementById('search').textContent = health.search === 'ready' ? 'ready' : 'building index…';
    await refreshUpdate();
  } catch {
    status.textContent = 'not answering';
    status.className = 'down';
  }
}

refresh();
setInterval(refresh, 5000);
