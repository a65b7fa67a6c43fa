/** Features an organization can have enabled. */
export const FEATURES = ['identity-logs', 'barcode-aliases'] as const;

export type Feature = (typeof FEATURES)[number];

export function isFeature(name: string): name is Feature {
  return (FEATURES as readonly string[]).includes(name);
}
