/** Longest pause between two keys of one scan: wedge scanners type a code in a few milliseconds, people do not. */
const MAX_KEY_GAP_MS = 40;
/** Shorter bursts are more likely a person's quick double tap than a code. */
const MIN_CODE_LENGTH = 3;

/** Fields that take a scanner's keys as typed text (the staff code field, the MRZ box). */
const OWNS_SCANS = '[data-scan="own"]';

function isEditable(target: EventTarget | null): target is HTMLInputElement | HTMLTextAreaElement {
  return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement;
}

/**
 * Listens for a keyboard-wedge scanner anywhere on the page, with or without a
 * focused field: a fast burst of keys ending in Enter is one scan. When the
 * burst landed in a text field (the search box), the scanned characters are
 * taken out of it again. Returns a function that stops listening.
 */
export function listenForScans(doc: Document, onScan: (code: string) => void): () => void {
  let buffer = '';
  let lastAt = 0;

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.target instanceof Element && event.target.closest(OWNS_SCANS)) return;
    const now = event.timeStamp;
    const gap = now - lastAt;
    lastAt = now;
    if (event.key === 'Enter') {
      const code = buffer;
      const fast = gap <= MAX_KEY_GAP_MS;
      buffer = '';
      if (code.length >= MIN_CODE_LENGTH && fast) {
        event.preventDefault();
        removeTypedCode(event.target, code);
        onScan(code);
      }
      return;
    }
    if (event.key.length !== 1 || event.ctrlKey || event.altKey || event.metaKey) return;
    buffer = gap > MAX_KEY_GAP_MS ? event.key : buffer + event.key;
  };

  doc.addEventListener('keydown', onKeyDown, true);
  return () => doc.removeEventListener('keydown', onKeyDown, true);
}

function removeTypedCode(target: EventTarget | null, code: string): void {
  if (!isEditable(target) || !target.value.endsWith(code)) return;
  target.value = target.value.slice(0, -code.length);
  target.dispatchEvent(new Event('input', { bubbles: true }));
}
