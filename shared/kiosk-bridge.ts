/** Name under which the desktop app's preload exposes `{ config: KioskConfig }` to the page. */
export const KIOSK_BRIDGE = 'kioskBridge';
