/** Where mail goes: the parts of an `SMTP_URL`. */
export interface SmtpServer {
  host: string;
  port: number;
  /** `smtps://`: TLS from the first byte (port 465). `smtp://` upgrades with STARTTLS when the server offers it. */
  secure: boolean;
  user?: string | undefined;
  pass?: string | undefined;
}

/** An `SMTP_URL` or `smtpUrl` that cannot be used; the message says what would be. */
export class SmtpUrlInvalid extends Error {}

const EXAMPLE = 'such as smtp://user:password@mail.example.ch:587 or smtps://user:password@mail.example.ch:465';

/**
 * Reads `smtp://user:pass@host:587` or `smtps://…:465`. The message of the
 * error never repeats the URL, which may hold a password.
 */
export function parseSmtpUrl(text: string): SmtpServer {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new SmtpUrlInvalid(`the mail server URL does not parse; give one ${EXAMPLE}`);
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new SmtpUrlInvalid(`the mail server URL must start with smtp:// or smtps://, not ${url.protocol}//; give one ${EXAMPLE}`);
  }
  if (url.hostname === '') throw new SmtpUrlInvalid(`the mail server URL names no host; give one ${EXAMPLE}`);
  if ((url.pathname !== '' && url.pathname !== '/') || url.search !== '' || url.hash !== '') {
    throw new SmtpUrlInvalid(`the mail server URL takes no path or query; give one ${EXAMPLE}`);
  }
  const secure = url.protocol === 'smtps:';
  const port = url.port === '' ? (secure ? 465 : 587) : Number(url.port);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    secure,
    user: url.username === '' ? undefined : decodeURIComponent(url.username),
    pass: url.password === '' ? undefined : decodeURIComponent(url.password),
  };
}

/** The URL without its password, for answers and logs. */
export function describeSmtpServer(server: SmtpServer): string {
  const user = server.user ? `${encodeURIComponent(server.user)}@` : '';
  const host = server.host.includes(':') ? `[${server.host}]` : server.host;
  return `${server.secure ? 'smtps' : 'smtp'}://${user}${host}:${server.port}`;
}
