import { printerNetworkPolicy } from '../../main/receipts/printer-network.js';

/** The fake printer listens on loopback, on a port the system picks: tests widen the printer rules as the settings document. */
export const TEST_PRINTER_NETWORK = printerNetworkPolicy({ PRINTER_ALLOW_ADDRESSES: 'loopback', PRINTER_PORTS: '1024-65535' });
