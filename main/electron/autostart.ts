import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { App } from 'electron';

/** Command-line switch that turns kiosk mode on (and keeps it on in kiosk.json). */
export const KIOSK_SWITCH = '--kiosk';
/**
 * What start at login passes instead: kiosk.json decides, so `kiosk mode off`
 * holds at the next login. Only a kiosk registers it, so a kiosk.json that
 * cannot be read at login keeps the kiosk locked rather than opening a desktop.
 */
export const AT_LOGIN_SWITCH = '--at-login';
/** File name of the Linux autostart entry. */
export const AUTOSTART_FILE = 'store-server.desktop';

export interface AutostartTarget {
  platform: NodeJS.Platform;
  /** The program to start: the AppImage file or the installed executable. */
  executable: string;
  /** `$XDG_CONFIG_HOME`, where Linux desktops look for `autostart/*.desktop`. */
  configHome: string;
}

/** Quotes a path for the Exec key of a desktop entry (freedesktop Desktop Entry spec). */
const quoteExec = (path: string) => `"${path.replace(/(["`$\\])/g, '\\$1')}"`;

export function autostartEntry(executable: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Store Server',
    `Exec=${quoteExec(executable)} ${AT_LOGIN_SWITCH}`,
    'X-GNOME-Autostart-enabled=true',
    'NoDisplay=true',
    '',
  ].join('\n');
}

/**
 * Makes the kiosk start when its user logs in: a login item on Windows, an
 * XDG autostart entry on Linux. Returns what was registered, for the log.
 */
export function startAtLogin(app: Pick<App, 'setLoginItemSettings'>, target: AutostartTarget): string | undefined {
  if (target.platform === 'win32' || target.platform === 'darwin') {
    app.setLoginItemSettings({ openAtLogin: true, path: target.executable, args: [AT_LOGIN_SWITCH] });
    return `login item ${target.executable} ${AT_LOGIN_SWITCH}`;
  }
  if (target.platform !== 'linux') return undefined;
  const dir = join(target.configHome, 'autostart');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, AUTOSTART_FILE);
  writeFileSync(file, autostartEntry(target.executable));
  return file;
}

/** Where this installation runs from: an AppImage is started by its file name, not its mount point. */
export function autostartTarget(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, execPath: string): AutostartTarget {
  return {
    platform,
    executable: env.APPIMAGE || execPath,
    configHome: env.XDG_CONFIG_HOME || join(homedir(), '.config'),
  };
}
