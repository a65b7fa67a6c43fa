/** Name under which the desktop app's preload exposes `{ config: KioskConfig }` to the page. */
export const KIOSK_BRIDGE = 'kioskBridge';

/** What the kiosk page reports through `kioskBridge.reportActivity` whenever it changes: the desktop app installs updates only when no customer is affected. */
export interface KioskPageActivity {
  cartEmpty: boolean;
  /** A checkout is under way: from choosing to pay until the receipt is closed. */
  saleInFlight: boolean;
}

/** What `kioskBridge.printReceipt(heightMm)` resolves to: whether the PC's printer took the receipt. */
export interface KioskReceiptPrintAnswer {
  id: number;
  printed: boolean;
  message: string | null;
}
