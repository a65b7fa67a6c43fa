import type { PrinterCreate, PrinterStatus } from '../../shared/api/printers.js';
import { newId } from '../rules/ids.js';
import type { Caller } from '../services/caller.js';
import type { Clock } from '../services/clock.js';
import { BadRequest, NotAllowed, NotFound } from '../services/errors.js';
import { requireStores } from '../services/store-references.js';
import type { PrinterRecord, PrinterStore } from '../storage/printers.js';
import type { StoreStore } from '../storage/stores.js';
import { PrinterNotFound, type PrinterConnection } from './printer-connection.js';
import type { PrinterStates } from './printer-states.js';

/**
 * The receipt printers staff register per store, the only ones the server
 * prints on, with the state each was last found in.
 */
export function createPrinterRegistry(deps: { printers: PrinterStore; stores: StoreStore; connection: PrinterConnection; states: PrinterStates; clock: Clock }) {
  const { printers, connection, states, clock } = deps;

  const statusOf = (p: PrinterRecord): PrinterStatus => ({
    id: p.id,
    store: p.store,
    name: p.name,
    host: p.host,
    port: p.port,
    ...states.of(p.id),
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  });

  /** A kiosk key sees its own store's printers only, as it sees only its own store. */
  const visible = (caller: Caller, p: PrinterRecord): boolean => !caller.store || p.store === caller.store;

  const mustGet = (caller: Caller, id: string): PrinterRecord => {
    const printer = printers.get(caller.orgId, id);
    if (!printer || !visible(caller, printer)) throw new NotFound('Printer', id);
    return printer;
  };

  return {
    /** Checks the store and the address (resolving a name once) before anything is stored. */
    async register(caller: Caller, body: PrinterCreate): Promise<string> {
      requireStores(deps.stores, caller.orgId, 'store', [body.store]);
      try {
        await connection.checkedAddress(body);
      } catch (err) {
        if (err instanceof PrinterNotFound) throw new BadRequest(`Printer host ${JSON.stringify(body.host)} could not be resolved to an address: enter the printer's IP address`);
        throw err;
      }
      const now = clock.now().toISOString();
      const id = newId();
      printers.insert({ id, orgId: caller.orgId, store: body.store, name: body.name, host: body.host, port: body.port, createdAt: now, updatedAt: now });
      return id;
    },

    list(caller: Caller): PrinterStatus[] {
      return printers.list(caller.orgId).filter((p) => visible(caller, p)).map(statusOf);
    },

    /** The printer a print request names, in the request body: an unknown one is a bad request, not a missing resource. */
    named(caller: Caller, id: string): PrinterRecord {
      const printer = printers.get(caller.orgId, id);
      if (!printer) throw new BadRequest(`printer: no printer ${JSON.stringify(id)} is registered in this organization (GET /printers lists them)`);
      if (!visible(caller, printer)) {
        throw new NotAllowed(`printer: a kiosk key of store ${JSON.stringify(caller.store)} prints on that store's printers only, not on ${JSON.stringify(printer.name)} of another store`);
      }
      return printer;
    },

    remove(caller: Caller, id: string): void {
      if (!printers.remove(caller.orgId, id, clock.now().toISOString())) throw new NotFound('Printer', id);
    },

    /** Asks the printer for its paper status, printing nothing: staff see a printer that is off or out of paper before the first sale. */
    async check(caller: Caller, id: string): Promise<PrinterStatus> {
      const printer = mustGet(caller, id);
      const attempt = await connection.send(printer, Buffer.alloc(0));
      states.checked(printer, attempt, clock.now());
      return statusOf(printer);
    },
  };
}

export type PrinterRegistry = ReturnType<typeof createPrinterRegistry>;
