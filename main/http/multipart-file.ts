import busboy from 'busboy';
import type { Request } from 'express';
import { BadRequest, PayloadTooLarge, type ApiError } from '../services/errors.js';

export interface FilePartOptions<T> {
  /** Name of the one part the body must consist of. */
  field: string;
  /** Largest accepted file in bytes; one byte more is a 413. */
  maxBytes: number;
  /** Checks the part's Content-Type as soon as its headers arrive, before any of its bytes are read; throws to refuse. */
  accept(contentType: string): T;
}

export interface FilePart<T> {
  bytes: Buffer;
  type: T;
}

/** A byte count as people read a file's size, e.g. "10 MiB". */
export const mib = (bytes: number) => `${(bytes / 1_048_576).toLocaleString('en-US', { maximumFractionDigits: 2 })} MiB`;

/**
 * Reads the single file part of a `multipart/form-data` body into memory, at
 * most `maxBytes` of it. On any problem reading stops at once: the request is
 * unpiped and left unread, so an oversized or unwanted body is never taken in.
 * The caller then answers with `Connection: close`, which ends the connection
 * instead of draining the rest.
 */
export function readFilePart<T>(req: Request, options: FilePartOptions<T>): Promise<FilePart<T>> {
  const { field, maxBytes } = options;
  const usage = `send the image as multipart/form-data in one part named "${field}" (with a filename)`;
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // Busboy flags a file once it reaches its limit, so the limit is one byte past the largest accepted size.
      parser = busboy({ headers: req.headers, limits: { fileSize: maxBytes + 1, files: 1, fields: 0 } });
    } catch (err) {
      reject(new BadRequest(`Request body is not multipart/form-data (${(err as Error).message}): ${usage}`));
      return;
    }
    let settled = false;
    let received: FilePart<T> | undefined;
    const fail = (error: ApiError) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      reject(error);
    };

    parser.on('file', (name, stream, info) => {
      stream.on('error', () => fail(new BadRequest(`The body ended inside the "${field}" part: ${usage}`)));
      if (name !== field) {
        fail(new BadRequest(`Unexpected part ${JSON.stringify(name)}: ${usage}`));
        return;
      }
      let type: T;
      try {
        type = options.accept(info.mimeType);
      } catch (err) {
        fail(err as ApiError);
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
      });
      stream.on('limit', () => {
        fail(new PayloadTooLarge(`${field}: larger than the limit of ${maxBytes} bytes (${mib(maxBytes)})`));
      });
      stream.on('end', () => {
        if (!settled) received = { bytes: Buffer.concat(chunks, size), type };
      });
    });
    parser.on('fieldsLimit', () => fail(new BadRequest(`Unexpected form field: ${usage}`)));
    parser.on('filesLimit', () => fail(new BadRequest(`More than one file part: ${usage}`)));
    parser.on('error', (err: Error) => fail(new BadRequest(`Malformed multipart body (${err.message}): ${usage}`)));
    parser.on('close', () => {
      if (settled) return;
      if (!received) {
        fail(new BadRequest(`${field}: is required; ${usage}`));
        return;
      }
      settled = true;
      resolve(received);
    });
    const aborted = () => fail(new BadRequest('The request was aborted while its body was being read'));
    req.on('error', aborted);
    req.on('close', () => {
      if (!req.complete) aborted();
    });
    req.pipe(parser);
  });
}
