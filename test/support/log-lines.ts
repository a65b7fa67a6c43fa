import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

/** A logger at `level` whose lines a test reads back, one entry per JSON line written. */
export function capturedLog(level: pino.LevelWithSilent = 'info'): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter((line) => line !== ''));
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}
