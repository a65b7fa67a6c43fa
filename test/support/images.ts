import { randomBytes } from 'node:crypto';
import { request, type IncomingHttpHeaders } from 'node:http';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { Api } from './api.js';

export type Format = 'jpeg' | 'png' | 'webp' | 'gif';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The spec's standard error shape. */
export const standardError = (statusCode: number, message: string | RegExp) => ({
  statusCode,
  message: typeof message === 'string' ? message : expect.stringMatching(message),
  timestamp: expect.stringMatching(ISO),
  path: expect.stringMatching(/^\/api\/v1\//),
});

/** Creates a product and returns its id. */
export async function createProduct(client: Api, body: Record<string, unknown> = {}): Promise<string> {
  const res = await client.post('/products', { name: 'Apfel', price: 100, taxCategory: '2.6', ...body });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

/** The stored file name at the end of an image URL. */
export const nameOf = (url: string): string => url.split('/').at(-1) ?? '';

/** A small real image of the format, made with sharp. */
export function makeImage(format: Format, size: { width: number; height: number } = { width: 24, height: 16 }): Promise<Buffer> {
  const image = sharp({ create: { ...size, channels: 3, background: { r: 200, g: 40, b: 90 } } });
  return image.toFormat(format).toBuffer();
}

/**
 * A valid PNG of exactly `size` bytes: uncompressible noise stored without
 * compression, topped up with a private ancillary chunk that decoders skip.
 */
export async function pngOfExactSize(size: number): Promise<Buffer> {
  const width = 1024;
  // Stored deflate blocks and row filter bytes add well under 1 % to the raw pixels.
  const height = Math.floor((size * 0.99) / (width * 3 + 1));
  const noise = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  const padding = size - noise.length - 12;
  if (padding < 0) throw new Error(`noise PNG is already ${noise.length} bytes`);
  const typeAndData = Buffer.concat([Buffer.from('paDd', 'latin1'), Buffer.alloc(padding, 0x2a)]);
  const chunk = Buffer.alloc(12 + padding);
  chunk.writeUInt32BE(padding, 0);
  typeAndData.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(typeAndData), 8 + padding);
  const iend = noise.length - 12;
  return Buffer.concat([noise.subarray(0, iend), chunk, noise.subarray(iend)]);
}

/** A multipart body as browsers send it, with the given part name, type and file name. */
export function imageForm(bytes: Uint8Array, contentType: string, options: { field?: string; filename?: string } = {}): FormData {
  const form = new FormData();
  form.append(options.field ?? 'file', new Blob([bytes], { type: contentType }), options.filename ?? 'photo');
  return form;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
}

const readResponse = (res: import('node:http').IncomingMessage) =>
  new Promise<RawResponse>((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('error', reject);
    res.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const json = (res.headers['content-type'] ?? '').includes('json');
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: json && text !== '' ? JSON.parse(text) : text });
    });
  });

/**
 * A request sent as written: the path is not normalized (`..` stays) and the
 * Host header can be chosen, which fetch does not allow.
 */
export function rawRequest(
  baseUrl: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer },
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, method: options.method ?? 'GET', path: options.path, headers: options.headers ?? {} });
    req.on('response', (res) => readResponse(res).then(resolve, reject));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A multipart body with one file part, built by hand for `rawRequest`. */
export function multipartBody(bytes: Buffer, contentType: string): { body: Buffer; contentType: string } {
  const boundary = `----form${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo"\r\nContent-Type: ${contentType}\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/**
 * Streams a file part of `total` bytes, writing only as fast as the server
 * reads, and goes on writing after the answer arrives. `cutOff` tells whether
 * the server closed the connection before the whole body was sent, and
 * `written` how much of it went out by then.
 */
export function streamLargeUpload(url: string, key: string, total: number): Promise<RawResponse & { written: number; cutOff: boolean }> {
  const boundary = `----form${randomBytes(8).toString('hex')}`;
  return new Promise((resolve, reject) => {
    let answer: RawResponse | undefined;
    let written = 0;
    let ended = false;
    let cutOff = false;
    const req = request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    const settle = () => {
      if (!answer || !ended) return;
      req.destroy();
      resolve({ ...answer, written, cutOff });
    };
    req.on('response', (res) => {
      readResponse(res).then((received) => {
        answer = received;
        settle();
      }, reject);
    });
    req.on('error', (err) => {
      cutOff = true;
      ended = true;
      if (answer) settle();
      else reject(err);
    });
    req.on('finish', () => {
      ended = true;
      settle();
    });
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x2a);
    const pump = () => {
      while (!ended && written < total) {
        written += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!ended) req.end(`\r\n--${boundary}--\r\n`);
    };
    pump();
  });
}
