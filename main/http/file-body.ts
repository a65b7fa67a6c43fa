import type { Request } from 'express';
import { BadRequest, PayloadTooLarge } from '../services/errors.js';
import { mib } from './multipart-file.js';

export interface FileBodyOptions {
  /** Largest accepted body in bytes; one byte more is a 413. */
  maxBytes: number;
  /** Accepted `Content-Type` values (without parameters). */
  types: readonly string[];
  /** What to send instead, for the message of a refused type. */
  usage: string;
}

/**
 * Reads a raw request body (a file sent as is) into memory, at most
 * `maxBytes`. A `Content-Length` over the limit is refused before a byte is
 * read; otherwise the bytes are counted as they arrive and reading stops at
 * the limit. The caller answers a refusal with `Connection: close`, which
 * ends the connection instead of draining the rest.
 */
export function readFileBody(req: Request, options: FileBodyOptions): Promise<Buffer> {
  const { maxBytes } = options;
  const tooLarge = () => new PayloadTooLarge(`The file is larger than the limit of ${maxBytes} bytes (${mib(maxBytes)}); split it into several files`);
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (!options.types.includes(type)) {
    return Promise.reject(new BadRequest(`Content-Type ${JSON.stringify(type || '(none)')} is not accepted: ${options.usage}`));
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      req.pause();
      req.removeAllListeners('data');
      reject(error);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) fail(tooLarge());
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks, size));
    });
    req.on('error', () => fail(new BadRequest(`The body ended before the whole file arrived: ${options.usage}`)));
  });
}
