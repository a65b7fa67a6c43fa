import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { decodeEscPos } from './escpos-decoder.js';

/** ESC/POS DLE EOT 4: the paper status query the server sends before a receipt. */
const PAPER_STATUS_QUERY = Buffer.from([0x10, 0x04, 0x04]);
/** Answers to it: paper present, and paper end detected (bits 5 and 6). */
const PAPER_PRESENT = 0x12;
const PAPER_END = 0x72;

export interface PrintJob {
  bytes: Buffer;
  /** The printed text, line by line (see decodeEscPos). */
  lines: string[];
}

/**
 * A network receipt printer on a loopback port: answers the paper status
 * query like an Epson printer and keeps what each connection sent after it.
 */
export interface FakePrinter {
  host: string;
  port: number;
  jobs: PrintJob[];
  /** Connections accepted so far, status checks included. */
  connections(): number;
  /** Makes the printer report its paper end (or paper again). */
  setPaperOut(out: boolean): void;
  /** Resolves with the next job the printer receives. */
  nextJob(): Promise<PrintJob>;
  close(): Promise<void>;
}

export async function startFakePrinter(): Promise<FakePrinter> {
  let paperOut = false;
  const jobs: PrintJob[] = [];
  const waiting: ((job: PrintJob) => void)[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    const chunks: Buffer[] = [];
    socket.on('data', (data) => {
      chunks.push(data);
      if (Buffer.concat(chunks).subarray(0, 3).equals(PAPER_STATUS_QUERY) && chunks.length === 1) socket.write(Buffer.from([paperOut ? PAPER_END : PAPER_PRESENT]));
    });
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const bytes = all.subarray(0, 3).equals(PAPER_STATUS_QUERY) ? all.subarray(3) : all;
      socket.end();
      if (bytes.length === 0) return;
      const job = { bytes, lines: decodeEscPos(bytes) };
      jobs.push(job);
      waiting.shift()?.(job);
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    jobs,
    connections: () => connections,
    setPaperOut: (out) => void (paperOut = out),
    nextJob: () => new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on: a printer that is switched off. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
