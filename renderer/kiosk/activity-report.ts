import { KIOSK_BRIDGE, type KioskPageActivity } from '../../shared/kiosk-bridge.js';

/** Tells the desktop app what the kiosk is doing (it holds updates back meanwhile); a plain browser has no bridge. */
export function reportActivity(activity: KioskPageActivity): void {
  const bridge = (window as unknown as Record<string, { reportActivity?: (activity: KioskPageActivity) => void } | undefined>)[KIOSK_BRIDGE];
  bridge?.reportActivity?.(activity);
}
