import type { Terminal, TerminalCreate } from '../../shared/api/terminals.js';
import { newId } from '../rules/ids.js';
import type { SecretBox } from '../security/secret-box.js';
import type { Caller } from '../services/caller.js';
import type { Clock } from '../services/clock.js';
import { BadRequest, NotFound, UnprocessableEntity } from '../services/errors.js';
import { requireStores } from '../services/store-references.js';
import type { StoreStore } from '../storage/stores.js';
import type { TerminalRecord, TerminalStore } from '../storage/terminals.js';
import { terminalCertificateProblem } from './terminal-ca-check.js';
import { terminalAddressProblem, terminalConnectProblem, type TerminalNetworkPolicy } from './terminal-network.js';
import type { TerminalEndpoint } from './terminal-protocol.js';

/** The card terminals staff register per store; the passphrase is sealed before it is stored and never answered. */
export function createTerminalRegistry(deps: { terminals: TerminalStore; stores: StoreStore; secrets: SecretBox; policy: TerminalNetworkPolicy; clock: Clock }) {
  const { terminals, secrets, clock } = deps;

  const endpointOf = (t: TerminalRecord): TerminalEndpoint => ({
    host: t.host,
    port: t.port,
    poiId: t.poiId,
    keyIdentifier: t.keyIdentifier,
    keyVersion: t.keyVersion,
    passphrase: secrets.open(t.sealedPassphrase),
    certificate: t.certificate,
  });
  const publicOf = (t: TerminalRecord): Terminal => ({ id: t.id, store: t.store, name: t.name, protocol: t.protocol, host: t.host, port: t.port, poiId: t.poiId });
  const visible = (caller: Caller, t: TerminalRecord) => !caller.store || t.store === caller.store;

  return {
    async register(caller: Caller, body: TerminalCreate): Promise<string> {
      requireStores(deps.stores, caller.orgId, 'store', [body.store]);
      const problem = terminalAddressProblem(body.host, body.port, deps.policy) ?? (await terminalConnectProblem(body.host, body.port));
      if (problem) throw new BadRequest(`host: ${problem}`);
      const certificateProblem = terminalCertificateProblem(body.certificate, clock.now());
      if (certificateProblem) throw new BadRequest(certificateProblem);
      const now = clock.now().toISOString();
      const id = newId();
      const { passphrase, ...rest } = body;
      terminals.insert({ ...rest, id, orgId: caller.orgId, sealedPassphrase: secrets.seal(passphrase), createdAt: now, updatedAt: now });
      return id;
    },

    list(caller: Caller): Terminal[] {
      return terminals.list(caller.orgId).filter((t) => visible(caller, t)).map(publicOf);
    },

    remove(caller: Caller, id: string): void {
      if (!terminals.remove(caller.orgId, id, clock.now().toISOString())) throw new NotFound('Terminal', id);
    },

    /** A terminal the caller may see, to ask it something; another store's is answered like an unknown one. */
    visibleEndpoint(caller: Caller, id: string): TerminalEndpoint {
      const t = terminals.get(caller.orgId, id);
      if (!t || !visible(caller, t)) throw new NotFound('Terminal', id);
      return this.endpoint(id) as TerminalEndpoint;
    },

    /** The terminal a payment of this store goes to: the one named, or the store's only one. */
    forPayment(caller: Caller, store: string, id: string | undefined): TerminalRecord {
      const ofStore = terminals.list(caller.orgId).filter((t) => t.store === store);
      if (id !== undefined) {
        const named = ofStore.find((t) => t.id === id);
        if (!named) throw new BadRequest(`terminal: no terminal ${JSON.stringify(id)} is registered for store ${JSON.stringify(store)} (GET /terminals lists them)`);
        return named;
      }
      if (ofStore.length === 0) throw new UnprocessableEntity(`store: no card terminal is registered for store ${JSON.stringify(store)}; staff register one with POST /terminals`);
      if (ofStore.length > 1) throw new BadRequest(`terminal: store ${JSON.stringify(store)} has ${ofStore.length} terminals; name one (GET /terminals lists them)`);
      return ofStore[0]!;
    },

    /** A store's terminals with how to reach each. */
    ofStore(orgId: string, store: string): { id: string; name: string; endpoint: TerminalEndpoint }[] {
      return terminals
        .list(orgId)
        .filter((t) => t.store === store)
        .map((t) => ({ id: t.id, name: t.name, endpoint: endpointOf(t) }));
    },

    /** How to reach a terminal a payment went to, also one removed since: its payments are still settled. */
    endpoint(id: string): TerminalEndpoint | undefined {
      const t = terminals.find(id);
      return t ? endpointOf(t) : undefined;
    },
  };
}

export type TerminalRegistry = ReturnType<typeof createTerminalRegistry>;
