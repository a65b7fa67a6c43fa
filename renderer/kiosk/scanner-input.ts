/**
 * A scan is told from typing by its pace: wedge scanners send a key every 5 to
 * 80 ms, people type slower. The median gap decides, so one late key (a busy
 * page, a loaded PC delivering keys in a clump) does not split a code.
 */
const MAX_MEDIAN_GAP_MS = 80;
/** A pause this long ends any scan: what came before belongs to something else. */
const MAX_STALL_MS = 600;
/** Shorter bursts are more likely a person's quick double tap than a code. */
const MIN_CODE_LENGTH = 3;
/** Keys kept to look back over: longer than any barcode or QR payload a till reads. */
const MAX_KEYS = 512;

/** Fields that take a scanner's keys as typed text (the staff code field, the MRZ box). */
const OWNS_SCANS = '[data-scan="own"]';

function isEditable(target: EventTarget | null): target is HTMLInputElement | HTMLTextAreaElement {
  return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement;
}

interface Key {
  key: string;
  at: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Infinity;

/** The scanned code that ends the keys at `endAt`, or undefined when they were typed by a person. */
function scannedCode(keys: Key[], endAt: number): string | undefined {
  let start = keys.length;
  let next = endAt;
  while (start > 0 && next - keys[start - 1]!.at <= MAX_STALL_MS) next = keys[--start]!.at;
  const run = keys.slice(start);
  if (run.length < MIN_CODE_LENGTH) return undefined;
  const gaps = run.map((k, i) => (run[i + 1]?.at ?? endAt) - k.at);
  return median(gaps) <= MAX_MEDIAN_GAP_MS ? run.map((k) => k.key).join('') : undefined;
}

export interface ScanOptions {
  /** The keys a scanner sends after a code; Enter unless the scanners are set up with another suffix (Tab). */
  endKeys?: readonly string[];
}

/**
 * Listens for a keyboard-wedge scanner anywhere on the page, with or without a
 * focused field: a burst of keys at a scanner's pace ending in the scanner's
 * suffix is one scan. When the burst landed in a text field (the search box),
 * the scanned characters are taken out of it again. Returns a function that
 * stops listening.
 */
export function listenForScans(doc: Document, onScan: (code: string) => void, options: ScanOptions = {}): () => void {
  const endKeys = options.endKeys ?? ['Enter'];
  let keys: Key[] = [];

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.target instanceof Element && event.target.closest(OWNS_SCANS)) return;
    if (endKeys.includes(event.key)) {
      const code = scannedCode(keys, event.timeStamp);
      keys = [];
      if (code !== undefined) {
        event.preventDefault();
        removeTypedCode(event.target, code);
        onScan(code);
      }
      return;
    }
    if (event.key.length !== 1 || event.ctrlKey || event.altKey || event.metaKey) return;
    keys.push({ key: event.key, at: event.timeStamp });
    if (keys.length > MAX_KEYS) keys = keys.slice(-MAX_KEYS);
  };

  // A scanner never clicks or moves the focus: keys typed before either belong to a person's editing, not to the next scan.
  const forget = () => (keys = []);
  doc.addEventListener('keydown', onKeyDown, true);
  doc.addEventListener('pointerdown', forget, true);
  doc.addEventListener('focusin', forget, true);
  return () => {
    doc.removeEventListener('keydown', onKeyDown, true);
    doc.removeEventListener('pointerdown', forget, true);
    doc.removeEventListener('focusin', forget, true);
  };
}

function removeTypedCode(target: EventTarget | null, code: string): void {
  if (!isEditable(target) || !target.value.endsWith(code)) return;
  target.value = target.value.slice(0, -code.length);
  target.dispatchEvent(new Event('input', { bubbles: true }));
}
