/**
 * Instants of a keyed POST, of a card payment (its request written to the
 * terminal; its approval stored), of a refund (written to the terminal), of a
 * queued mail (about to be sent; accepted by the mail server, not yet marked
 * sent) and of a settlement (half its lines written; all its parts committed,
 * not yet finished), at which a test may cut the power.
 */
export type CrashInstant =
  | 'before-answer-kept'
  | 'before-answer-sent'
  | 'after-payment-sent'
  | 'after-payment-approved'
  | 'after-refund-sent'
  | 'before-mail-sent'
  | 'after-mail-accepted'
  | 'settlement-half-written'
  | 'settlement-part-committed';

// Read once at start-up, and only under the test runner: the product never sets either variable.
const armed = process.env.NODE_ENV === 'test' ? process.env.STORE_SERVER_CRASH_AT : undefined;

/**
 * Test-only: kills this process with SIGKILL, as a power cut would stop it, at
 * the named instant, so a test can prove that no instant loses or duplicates a
 * write. Does nothing unless NODE_ENV is `test` and STORE_SERVER_CRASH_AT
 * names the instant.
 */
export function crashPoint(instant: CrashInstant): void {
  if (armed === instant) process.kill(process.pid, 'SIGKILL');
}
