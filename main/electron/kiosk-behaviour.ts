import type { Input, PowerSaveBlocker, WebContents } from 'electron';
import type { Logger } from 'pino';

/** The key combination that lets staff leave the kiosk; documented in docs/desktop.md. */
export const STAFF_EXIT_KEYS = 'Ctrl+Alt+Shift+Q';

/** Keeps the screen on for as long as the app runs; returns the function that lets it sleep again. */
export function keepDisplayOn(blocker: Pick<PowerSaveBlocker, 'start' | 'stop'>): () => void {
  const id = blocker.start('prevent-display-sleep');
  return () => blocker.stop(id);
}

type Contents = Pick<WebContents, 'on' | 'reload' | 'forcefullyCrashRenderer' | 'isDestroyed'>;

/**
 * A kiosk left alone for months must come back by itself: a crashed or
 * killed page is loaded again, and a page that hangs is killed and loaded again.
 */
export function reloadWhenStuck(contents: Contents, logger: Logger): void {
  contents.on('render-process-gone', (_event, details) => {
    // A clean exit or a closed window is the app quitting, not a page to bring back.
    if (details.reason === 'clean-exit' || contents.isDestroyed()) return;
    logger.warn({ reason: details.reason, exitCode: details.exitCode }, 'the kiosk page stopped; loading it again');
    contents.reload();
  });
  contents.on('unresponsive', () => {
    logger.warn('the kiosk page does not respond; restarting it');
    contents.forcefullyCrashRenderer();
    contents.reload();
  });
}

type KeyInput = Pick<Input, 'type' | 'key' | 'control' | 'alt' | 'shift' | 'meta'>;

export function isStaffExit(input: Omit<KeyInput, 'meta'>): boolean {
  return input.type === 'keyDown' && input.control && input.alt && input.shift && input.key.toLowerCase() === 'q';
}

/** Keys Chromium acts on by itself: reload, developer tools, full screen, caret browsing, the browser keys of a keyboard. */
const BROWSER_KEYS = new Set(['f5', 'f7', 'f11', 'f12', 'browserback', 'browserforward', 'browserrefresh', 'browserhome', 'browserstop']);
/** What Ctrl may still do on the kiosk: edit a text field (copy, paste, cut, select all, undo, redo). */
const EDITING_LETTERS = new Set(['c', 'v', 'x', 'a', 'z', 'y']);

/**
 * A shortcut that reloads the page, opens the developer tools, zooms, prints,
 * navigates or closes. Ctrl with Alt is AltGr on Windows (`@`, `€`, `{` on
 * many keyboards), which a customer types into the search field, so it is left alone.
 */
export function isBlockedShortcut(input: KeyInput): boolean {
  if (input.type !== 'keyDown') return false;
  const key = input.key.toLowerCase();
  if (BROWSER_KEYS.has(key)) return true;
  if (input.alt && !input.control && (key === 'arrowleft' || key === 'arrowright' || key === 'home')) return true;
  if (!(input.control || input.meta) || input.alt) return false;
  return key === 'f4' || (input.key.length === 1 && !EDITING_LETTERS.has(key));
}

/** In kiosk mode no key reloads the page, opens the developer tools or leaves it; the menu that would offer them is gone as well. */
export function blockBrowserShortcuts(contents: Pick<WebContents, 'on'>): void {
  contents.on('before-input-event', (event, input) => {
    if (isBlockedShortcut(input)) event.preventDefault();
  });
}
