import type { StartOptions } from '../../main/server.js';
import { api, type Api } from './api.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';
import { startTestServer, type TestOrg, type TestServer, type TestServerOptions } from './server.js';
import { FAST_SYNC, configureSync } from './sync.js';

/** A store PC and its organization's upstream: two real servers, a fault proxy between them. */
export interface SyncPair {
  upstream: TestServer;
  local: TestServer;
  proxy: FaultProxy;
  upOrg: TestOrg;
  org: TestOrg;
  /** Write client of the local organization. */
  write: Api;
  /** Write client of the upstream organization, talking to the upstream directly. */
  up: Api;
  destroy(): Promise<void>;
}

export async function startSyncPair(
  options: { features?: string[]; local?: TestServerOptions; upstream?: StartOptions; intervalSeconds?: number; pullIntervalSeconds?: number; fullIntervalSeconds?: number } = {},
): Promise<SyncPair> {
  const features = options.features ?? ['identity-logs'];
  const upstream = await startTestServer(options.upstream);
  const proxy = await startFaultProxy(upstream.url);
  const local = await startTestServer({ sync: FAST_SYNC, ...options.local });
  const upOrg = upstream.createOrg(features);
  const org = local.createOrg(features);
  configureSync(local, org.id, {
    url: proxy.url,
    key: upOrg.writeKey,
    intervalSeconds: options.intervalSeconds,
    pullIntervalSeconds: options.pullIntervalSeconds,
    fullIntervalSeconds: options.fullIntervalSeconds,
  });
  return {
    upstream,
    local,
    proxy,
    upOrg,
    org,
    write: api(local.url, org.writeKey),
    up: api(upstream.url, upOrg.writeKey),
    async destroy() {
      await local.destroy();
      await proxy.close();
      await upstream.destroy();
    },
  };
}
