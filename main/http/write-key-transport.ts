import type { RequestHandler } from 'express';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import ipaddr from 'ipaddr.js';
import type { KeyKind } from '../storage/api-keys.js';
import { NotAllowed } from '../services/errors.js';
import { callerOf } from './auth.js';

const isLoopback = (address: string | undefined): boolean =>
  address !== undefined && ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';

/**
 * A write key may change everything of its organization: from another
 * computer it only travels over HTTPS, where nobody on the store network can
 * read it. This computer (the desktop app, a TLS proxy in front) may use plain
 * HTTP; read, kiosk and scale keys may too. Runs after `authenticate`.
 */
export const writeKeysOverTls: RequestHandler = (req, res, next) => {
  if (writeKeyInTheClear(callerOf(res).keyKind, req.socket)) {
    throw new NotAllowed(
      'A write key is not accepted over plain HTTP from another computer, where anyone on the network could read it: call this server over https:// (see docs/security.md, TLS=self-signed or TLS_CERT and TLS_KEY)',
    );
  }
  next();
};

/** A write key that came over plain HTTP from another computer. */
export function writeKeyInTheClear(kind: KeyKind, socket: Socket): boolean {
  return kind === 'write' && (socket as Partial<TLSSocket>).encrypted !== true && !isLoopback(socket.remoteAddress);
}
