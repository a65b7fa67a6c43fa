import type { Config } from '../config.js';

/** Title of the error window when the server cannot start. */
export const STARTUP_ERROR_TITLE = 'Store Server cannot start';

/** What the error window says: the cause in words a store manager can act on. */
export function describeStartupError(err: unknown, config: Pick<Config, 'host' | 'port' | 'dataDir'> | undefined): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const message = err instanceof Error ? err.message : String(err);
  if (config && code === 'EADDRINUSE') {
    return `Port ${config.port} on ${config.host} is already in use by another program (or another copy of Store Server). ` +
      `Scales and scanners expect the server at this address, so it does not move to another port. ` +
      `Close the other program, or set the PORT environment variable to a free port for both, then start Store Server again.`;
  }
  if (config && (code === 'EADDRNOTAVAIL' || code === 'EACCES')) {
    return `Store Server may not listen on ${config.host}:${config.port} (${code}). Check the HOST and PORT environment variables.`;
  }
  return `${message}${config ? `\n\nData folder: ${config.dataDir}` : ''}`;
}
