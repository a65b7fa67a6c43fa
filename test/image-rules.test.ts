import { describe, expect, it } from 'vitest';
import { imageTypeOf, sniffImageType } from '../main/rules/image-types.js';
import { imageUrlOf, isStoredImageName, parsePublicUrl, requestOrigin, storedImageNameIn } from '../main/rules/image-urls.js';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

describe('imageTypeOf', () => {
  it.each([
    ['image/jpeg', 'jpg'],
    ['image/png', 'png'],
    ['image/webp', 'webp'],
    ['image/gif', 'gif'],
    ['IMAGE/PNG', 'png'],
    ['image/png; charset=binary', 'png'],
    ['image/jpg', undefined],
    ['image/svg+xml', undefined],
    ['image/heic', undefined],
    ['application/octet-stream', undefined],
    ['', undefined],
  ])('%j is %s', (contentType, extension) => {
    expect(imageTypeOf(contentType)?.extension).toBe(extension);
  });
});

describe('sniffImageType', () => {
  it.each([
    [bytes([0xff, 0xd8, 0xff, 0xe0]), 'jpeg'],
    [bytes([0x89], 'PNG\r\n\x1a\n', [0, 0]), 'png'],
    [bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '), 'webp'],
    [bytes('GIF87a'), 'gif'],
    [bytes('GIF89a', [1]), 'gif'],
    [bytes([0xff, 0xd8]), undefined],
    [bytes([0x89], 'PNG\r\n'), undefined],
    [bytes('RIFF', [1, 2, 3, 4], 'WAVE'), undefined],
    [bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'), undefined],
    [bytes(''), undefined],
  ])('%o is %s', (input, format) => {
    expect(sniffImageType(input)?.format).toBe(format);
  });
});

describe('isStoredImageName', () => {
  it.each([
    ['AbCdEfGhIjKlMnOpQr12.png', true],
    ['AbCdEfGhIjKlMnOpQr12.jpg', true],
    ['AbCdEfGhIjKlMnOpQr12.webp', true],
    ['AbCdEfGhIjKlMnOpQr12.gif', true],
    ['AbCdEfGhIjKlMnOpQr12.jpeg', false],
    ['AbCdEfGhIjKlMnOpQr12.sqlite', false],
    ['AbCdEfGhIjKlMnOpQr1.png', false],
    ['.AbCdEfGhIjKlMnOpQr12.png.tmp', false],
    ['../AbCdEfGhIjKlMnOp12.png', false],
    ['AbCdEfGhIjKlMnOp/r12.png', false],
    ['AbCdEfGhIjKlMnOp\\r12.png', false],
    ['retail.sqlite', false],
    ['', false],
  ])('%j: %s', (name, expected) => {
    expect(isStoredImageName(name)).toBe(expected);
  });
});

describe('storedImageNameIn', () => {
  const name = 'AbCdEfGhIjKlMnOpQr12.png';
  it.each([
    [imageUrlOf('http://127.0.0.1:8787/api/v1', name), name],
    [`http://kasse-1.local:8787/api/v1/images/${name}`, name],
    [`https://kasse.example/shop/api/v1/images/${name}?v=2`, name],
    [`/api/v1/images/${name}`, name],
    [`https://cdn.example.com/images/${name}`, name],
    [`https://cdn.example.com/pictures/${name}`, undefined],
    ['https://cdn.example.com/images/milk.png', undefined],
    [`http://127.0.0.1:8787/api/v1/images/${name}/`, undefined],
    ['http://[not a url', undefined],
    ['', undefined],
  ])('%j names %s', (url, expected) => {
    expect(storedImageNameIn(url)).toBe(expected);
  });
});

describe('parsePublicUrl', () => {
  it.each([
    ['http://kasse-1.local:8787', 'http://kasse-1.local:8787'],
    ['http://kasse-1.local:8787/', 'http://kasse-1.local:8787'],
    ['http://kasse-1.local:8787/api/v1', 'http://kasse-1.local:8787'],
    ['https://Shop.Example/kiosk/', 'https://shop.example/kiosk'],
    ['https://shop.example:443/kiosk/api/v1/', 'https://shop.example/kiosk'],
  ])('%j becomes %j', (value, expected) => {
    expect(parsePublicUrl(value)).toBe(expected);
  });

  it.each([
    ['kasse-1.local:8787', /must start with http:\/\/ or https:\/\//],
    ['/api/v1', /must be an absolute URL/],
    ['ftp://kasse-1.local', /must start with http:\/\/ or https:\/\//],
    ['http://kasse-1.local/?x=1', /must not carry a query/],
    ['http://user:pw@kasse-1.local', /must not carry a query, fragment or credentials/],
  ])('refuses %j', (value, message) => {
    expect(() => parsePublicUrl(value)).toThrow(message);
  });
});

describe('requestOrigin', () => {
  const local = { address: '127.0.0.1', port: 8787 };
  it.each([
    ['kasse-1.local:8787', 'http://kasse-1.local:8787'],
    ['127.0.0.1:8787', 'http://127.0.0.1:8787'],
    ['[::1]:8787', 'http://[::1]:8787'],
    ['Kasse-1.Local', 'http://kasse-1.local'],
    [undefined, 'http://127.0.0.1:8787'],
    ['', 'http://127.0.0.1:8787'],
    ['evil.example/path', 'http://127.0.0.1:8787'],
    ['user@evil.example', 'http://127.0.0.1:8787'],
    ['kasse-1.local:99999', 'http://127.0.0.1:8787'],
  ])('Host %j gives %j', (host, expected) => {
    expect(requestOrigin('http', host, local)).toBe(expected);
  });

  it('brackets an IPv6 local address', () => {
    expect(requestOrigin('http', undefined, { address: '::1', port: 8787 })).toBe('http://[::1]:8787');
  });
});
