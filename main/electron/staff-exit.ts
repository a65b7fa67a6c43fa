import type { BrowserWindow, BrowserWindowConstructorOptions, Input, WebContents } from 'electron';
import type { Logger } from 'pino';
import type { StaffPinHash } from '../../shared/kiosk-config.js';
import { verifyStaffPin } from '../kiosk/staff-pin.js';
import { isStaffExit, STAFF_EXIT_KEYS } from './kiosk-behaviour.js';

/** Wrong PINs in a row after which the keyboard no longer leaves kiosk mode until the app starts again. */
export const PIN_ATTEMPTS = 5;
const MAX_DIGITS = 12;

type InputEvents = Pick<WebContents, 'on'>;

/** The small window that asks for the PIN: it shows what it is told and runs no script at all. */
export type PinPromptWindow = Pick<BrowserWindow, 'webContents' | 'loadURL' | 'close' | 'isDestroyed' | 'once' | 'show'>;

export function pinPromptOptions(parent: unknown): BrowserWindowConstructorOptions {
  return {
    parent: parent as BrowserWindowConstructorOptions['parent'],
    modal: true,
    width: 420,
    height: 220,
    frame: false,
    resizable: false,
    alwaysOnTop: true,
    show: false,
    backgroundColor: '#ffffff',
    webPreferences: { javascript: false, sandbox: true, contextIsolation: true, nodeIntegration: false, devTools: false, spellcheck: false },
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The prompt's page: a data: URL of static HTML, the typed digits as dots; the keys are read by the main process. */
export function pinPromptPage(typed: number, message: string): string {
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>Staff PIN</title><style>
body{font:20px system-ui,sans-serif;margin:0;display:flex;flex-direction:column;align-items:center;justify-content:center;height:100vh;border:3px solid #333;box-sizing:border-box}
p{margin:.4em}.dots{font-size:32px;letter-spacing:.3em;min-height:1.3em}.hint{font-size:14px;color:#555}</style></head><body>
<p>Staff PIN</p><p class="dots">${'&#9679;'.repeat(typed)}</p><p class="hint">${escapeHtml(message)}</p></body></html>`;
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}

export interface StaffExitOptions {
  kiosk: boolean;
  /** The PIN's hash as kiosk.json holds it now: `kiosk pin set` while the app runs applies at once. */
  readPin: () => StaffPinHash | undefined;
  openPrompt: () => PinPromptWindow;
  quit: () => void;
  logger: Logger;
}

/**
 * STAFF_EXIT_KEYS quits the app. In kiosk mode it first asks for the staff
 * PIN: the digits typed go to the main process only (the kiosk page never
 * sees them), Enter checks them, Escape gives up. Without a PIN set, or after
 * PIN_ATTEMPTS wrong ones, the keyboard does not leave kiosk mode.
 */
export function guardStaffExit(contents: InputEvents, options: StaffExitOptions): void {
  const { logger } = options;
  let prompt: { window: PinPromptWindow; typed: string } | undefined;
  let wrong = 0;

  const render = (message: string) => {
    if (!prompt || prompt.window.isDestroyed()) return;
    prompt.window.loadURL(pinPromptPage(prompt.typed.length, message)).catch((err: unknown) => logger.warn({ err }, 'the staff PIN prompt did not load'));
  };
  const close = () => {
    const open = prompt;
    prompt = undefined;
    if (open && !open.window.isDestroyed()) open.window.close();
  };

  const open = () => {
    if (wrong >= PIN_ATTEMPTS) {
      logger.warn(`${PIN_ATTEMPTS} wrong staff PINs: leaving kiosk mode from the keyboard is refused until the app starts again`);
      return;
    }
    if (!options.readPin()) {
      logger.warn(`${STAFF_EXIT_KEYS} pressed, but no staff PIN is set, so kiosk mode cannot be left from the keyboard; set one with \`kiosk pin set\` (docs/desktop.md)`);
      return;
    }
    const window = options.openPrompt();
    prompt = { window, typed: '' };
    window.webContents.on('before-input-event', onInput);
    window.once('closed', () => {
      if (prompt?.window === window) prompt = undefined;
    });
    window.once('ready-to-show', () => window.show());
    render('Enter, or Esc to go back');
  };

  const check = () => {
    const pin = options.readPin();
    const typed = prompt!.typed;
    prompt!.typed = '';
    if (pin && verifyStaffPin(typed, pin)) {
      logger.info('staff left kiosk mode with the PIN');
      close();
      options.quit();
      return;
    }
    wrong += 1;
    logger.warn({ attempt: wrong }, 'a wrong staff PIN was entered; kiosk mode stays');
    if (wrong >= PIN_ATTEMPTS) return close();
    render('Wrong PIN. Try again, or Esc');
  };

  function onInput(event: { preventDefault(): void }, input: Input) {
    if (prompt) {
      // Nothing typed while the prompt is open reaches the kiosk page.
      event.preventDefault();
      if (input.type !== 'keyDown') return;
      if (/^\d$/.test(input.key) && prompt.typed.length < MAX_DIGITS) prompt.typed += input.key;
      else if (input.key === 'Backspace') prompt.typed = prompt.typed.slice(0, -1);
      else if (input.key === 'Escape') return close();
      else if (input.key === 'Enter') return check();
      else return;
      render('Enter, or Esc to go back');
      return;
    }
    if (!isStaffExit(input)) return;
    event.preventDefault();
    if (options.kiosk) open();
    else options.quit();
  }

  contents.on('before-input-event', onInput);
}
