import type { Feature } from '../../shared/features.js';
import type { KeyKind } from '../storage/api-keys.js';
import { FeatureNotAvailable } from './errors.js';

/** Who is calling: the organization of the request's key, and what it may do. */
export interface Caller {
  orgId: string;
  /** The key of a request; absent for the CLI, which acts as staff without one. */
  keyId?: string | undefined;
  keyKind: KeyKind;
  /** The store a kiosk key is bound to: the caller sees and records only that store's sales and checks. Absent or null: every store. */
  store?: string | null | undefined;
  features: readonly string[];
}

export function requireFeature(caller: Caller, feature: Feature): void {
  if (!caller.features.includes(feature)) throw new FeatureNotAvailable();
}
