import { z } from 'zod';

/**
 * Where the desktop app's self-update stands. Only the desktop app updates
 * itself; the headless server reports `off`.
 */
export const UpdateStatusSchema = z
  .object({
    state: z
      .enum(['off', 'idle', 'checking', 'downloading', 'waiting', 'installing', 'failed'])
      .describe('`off`: no update source set; `waiting`: downloaded, installs when the kiosk is idle or at the night hour.'),
    currentVersion: z.string(),
    availableVersion: z.string().nullable().describe('A newer version the update source offers to this PC, if any.'),
    lastCheckAt: z.iso.datetime().nullable(),
    message: z.string().nullable().describe('Why the last check or download failed, in words staff can act on.'),
  })
  .meta({ id: 'UpdateStatus' });

export type UpdateStatus = z.infer<typeof UpdateStatusSchema>;

/** What a server without a self-updating app around it reports: updates are off. */
export function offUpdateStatus(version: string): UpdateStatus {
  return { state: 'off', currentVersion: version, availableVersion: null, lastCheckAt: null, message: null };
}
