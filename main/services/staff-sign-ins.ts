import { randomBytes } from 'node:crypto';
import type { Db } from '../storage/database.js';
import { createStaffSignInStore } from '../storage/staff-sign-ins.js';
import { immediateTransaction } from '../storage/transactions.js';
import type { Caller } from './caller.js';
import type { Clock } from './clock.js';
import { hashKey } from './organizations.js';

/** A working day: a clerk signs in once in the morning, and the sign-in is over by the next one. */
export const STAFF_SIGN_IN_HOURS = 12;
const SIGN_IN_MS = STAFF_SIGN_IN_HOURS * 60 * 60 * 1000;

export interface OpenedSignIn {
  /** The secret the browser keeps in its cookie; only its hash is stored. */
  token: string;
  expiresAt: string;
}

/**
 * Sign-ins of the staff page: a key signs in once, and the browser's cookie
 * then stands for that key (same kind, same store) until the sign-in expires,
 * is ended, or the key is revoked. The key itself never stays in the page.
 */
export function createStaffSignIns(deps: { db: Db; clock: Clock }) {
  const store = createStaffSignInStore(deps.db);

  return {
    open(caller: Caller): OpenedSignIn {
      if (!caller.keyId) throw new Error('a sign-in is opened by a key');
      const keyId = caller.keyId;
      const now = deps.clock.now();
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now.getTime() + SIGN_IN_MS).toISOString();
      immediateTransaction(deps.db, () => {
        store.removeEnded(now.toISOString());
        store.insert({ tokenHash: hashKey(token), keyId, createdAt: now.toISOString(), expiresAt });
      });
      return { token, expiresAt };
    },

    /** The caller a sign-in's token stands for, or undefined once it ended (expired, signed out, key revoked) or never was. */
    callerOf(token: string): Caller | undefined {
      const grant = store.grantOf(hashKey(token), deps.clock.now().toISOString());
      if (!grant) return undefined;
      return { orgId: grant.orgId, keyId: grant.keyId, keyKind: grant.kind, store: grant.store, features: grant.features, relayed: false };
    },

    end(token: string): void {
      immediateTransaction(deps.db, () => store.remove(hashKey(token)));
    },
  };
}

export type StaffSignIns = ReturnType<typeof createStaffSignIns>;
