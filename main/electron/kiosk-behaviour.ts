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

export function isStaffExit(input: Pick<Input, 'type' | 'key' | 'control' | 'alt' | 'shift'>): boolean {
  return input.type === 'keyDown' && input.control && input.alt && input.shift && input.key.toLowerCase() === 'q';
}

/** Full-screen kiosk mode hides every way out; staff quit with STAFF_EXIT_KEYS. */
export function addStaffExit(contents: Pick<WebContents, 'on'>, quit: () => void): void {
  contents.on('before-input-event', (event, input) => {
    if (!isStaffExit(input)) return;
    event.preventDefault();
    quit();
  });
}
