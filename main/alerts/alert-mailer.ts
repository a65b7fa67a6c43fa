import type { MailServers } from '../mail/mail-servers.js';
import type { SyncConfigStore } from '../sync/config-store.js';

/**
 * Whether this server mails an organization's alerts itself: yes when it has
 * a mail server, or when it has no upstream to leave them to. A store PC with
 * an upstream and no mail server queues none (they would wait for a server
 * that may never be set, then arrive a second time): its heartbeat says so and
 * the upstream mails the alerts it reports, and their ends.
 */
export function mailsAlertsItself(deps: { servers: Pick<MailServers, 'routeOf'>; syncConfigs: Pick<SyncConfigStore, 'get'> }, orgId: string): boolean {
  return !('problem' in deps.servers.routeOf(orgId)) || deps.syncConfigs.get(orgId) === undefined;
}
