import { resolve } from 'node:path';
import { parsePublicUrl } from './rules/image-urls.js';
import { parseAllowedHosts, parseAllowedOrigins } from './security/config.js';

/** Settings of the server and the CLI, read from the environment. */
export interface Config {
  /** `HOST`: interface to bind; default 127.0.0.1 (this machine only). */
  host: string;
  /** `PORT`: TCP port; default 8787; 0 picks a free one. */
  port: number;
  /** `DATA_DIR`: folder of the SQLite file and the image store; default ./data. */
  dataDir: string;
  /** `LOG_LEVEL`: pino level (fatal, error, warn, info, debug, silent); default info. */
  logLevel: string;
  /**
   * `PUBLIC_URL`: absolute base URL (e.g. http://kasse-1.local:8787) used to build
   * image URLs, for when browsers reach the server under another name; unset,
   * each request's own host is used.
   */
  publicUrl?: string | undefined;
  /**
   * `ALLOWED_HOSTS`: further names of this server (comma-separated), beyond
   * localhost, 127.0.0.1, [::1], `HOST`, `PUBLIC_URL`'s host and the address a
   * request arrives on; a request addressed to any other name gets 403.
   */
  allowedHosts?: string[] | undefined;
  /**
   * `ALLOWED_ORIGINS`: origins of web apps (e.g. https://backoffice.example) that
   * may call the API from a browser; they get CORS headers. Any other foreign
   * `Origin` gets 403.
   */
  allowedOrigins?: string[] | undefined;
  /**
   * `GROUP_COMMIT_MS`: how long a write waits for others to share its commit
   * (and its fsync), in ms; default 2; 0 commits each write on its own.
   */
  groupCommitMs?: number | undefined;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a whole number from 0 to 65535, not ${JSON.stringify(env.PORT)}`);
  }
  const groupCommitMs = env.GROUP_COMMIT_MS === undefined || env.GROUP_COMMIT_MS === '' ? undefined : Number(env.GROUP_COMMIT_MS);
  if (groupCommitMs !== undefined && !(Number.isInteger(groupCommitMs) && groupCommitMs >= 0 && groupCommitMs <= 1000)) {
    throw new Error(`GROUP_COMMIT_MS must be a whole number of milliseconds from 0 to 1000, not ${JSON.stringify(env.GROUP_COMMIT_MS)}`);
  }
  return {
    host: env.HOST || '127.0.0.1',
    port,
    dataDir: resolve(env.DATA_DIR || './data'),
    logLevel: env.LOG_LEVEL || 'info',
    publicUrl: env.PUBLIC_URL ? parsePublicUrl(env.PUBLIC_URL) : undefined,
    allowedHosts: parseAllowedHosts(env.ALLOWED_HOSTS),
    allowedOrigins: parseAllowedOrigins(env.ALLOWED_ORIGINS),
    groupCommitMs,
  };
}
