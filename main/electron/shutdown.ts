import type { App } from 'electron';
import type { Logger } from 'pino';

/**
 * Holds the quit until every step has run, in order: the kiosk page must not
 * outlive the server it talks to, and the server closes (background work,
 * HTTP, WAL checkpoint, database) before the process goes.
 */
export function shutDownInOrder(app: Pick<App, 'on' | 'quit'>, steps: (() => void | Promise<void>)[], logger: Logger): void {
  let state: 'running' | 'closing' | 'closed' = 'running';
  app.on('before-quit', (event) => {
    if (state === 'closed') return;
    event.preventDefault();
    if (state === 'closing') return;
    state = 'closing';
    void (async () => {
      for (const step of steps) {
        try {
          await step();
        } catch (err) {
          logger.error({ err }, 'a shutdown step failed; going on with the next');
        }
      }
      state = 'closed';
      app.quit();
    })();
  });
}
