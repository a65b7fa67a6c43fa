import { describe, expect, it } from 'vitest';
import { mergeRecord, sameRecord } from '../main/sync/merge.js';
import { referencesIn, rewriteReferences } from '../main/sync/resources.js';
import { backoffDelay, judge, retryAfterMs, type Verdict } from '../main/sync/retry-policy.js';
import type { UpstreamResult } from '../main/sync/upstream.js';

const NOW = new Date('2026-11-23T12:00:00.000Z');
const answer = (status: number, body: unknown = { message: 'x' }, retryAfter?: string): UpstreamResult => ({ kind: 'answer', status, body, retryAfter });

describe('judging an upstream answer', () => {
  const cases: [string, UpstreamResult, Verdict['kind'], string?][] = [
    ['200', answer(200, { success: true }), 'accepted'],
    ['no answer', { kind: 'no-answer', message: 'ECONNREFUSED' }, 'retry', 'offline'],
    ['timeout', { kind: 'no-answer', message: 'TimeoutError' }, 'retry', 'timeout'],
    ['500', answer(500), 'retry', 'server-error'],
    ['503', answer(503), 'retry', 'server-error'],
    ['408', answer(408), 'retry', 'timeout'],
    ['429', answer(429), 'retry', 'rate-limited'],
    ['401', answer(401), 'refused'],
    ['403 Forbidden', answer(403, { message: 'Forbidden' }), 'refused'],
    ['403 Feature not available', answer(403, { message: 'Feature not available' }), 'park'],
    ['400', answer(400, { message: 'price: must be 0 or more cents' }), 'park'],
    ['404', answer(404), 'park'],
    ['409', answer(409), 'park'],
    ['409 key still running', answer(409, { message: 'A request with Idempotency-Key "sync-o-1" is still being processed; retry after it has been answered' }), 'retry', 'in-progress'],
    ['422', answer(422), 'park'],
  ];
  it.each(cases)('%s', (_name, result, kind, reason) => {
    const verdict = judge(result, NOW);
    expect(verdict.kind).toBe(kind);
    if (reason) expect(verdict).toMatchObject({ reason });
  });

  it('keeps the upstream status and message of a parked entry', () => {
    expect(judge(answer(400, { statusCode: 400, message: 'price: must be 0 or more cents' }), NOW)).toEqual({
      kind: 'park',
      status: 400,
      message: 'price: must be 0 or more cents',
    });
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(retryAfterMs('120', NOW)).toBe(120_000);
    expect(retryAfterMs('Mon, 23 Nov 2026 12:00:30 GMT', NOW)).toBe(30_000);
    expect(retryAfterMs('soon', NOW)).toBeUndefined();
    expect(judge(answer(429, {}, '7'), NOW)).toMatchObject({ kind: 'retry', retryAfterMs: 7000 });
  });
});

describe('backoff', () => {
  const options = { baseMs: 1000, maxMs: 300_000 };
  it('grows exponentially from about a second to at most five minutes, with jitter', () => {
    expect(backoffDelay(1, 0, options)).toBe(500);
    expect(backoffDelay(1, 1, options)).toBe(1000);
    expect(backoffDelay(4, 1, options)).toBe(8000);
    expect(backoffDelay(30, 1, options)).toBe(300_000);
    expect(backoffDelay(30, 0, options)).toBe(150_000);
  });
  it('never waits less than Retry-After asks, nor more than the maximum', () => {
    expect(backoffDelay(1, 0, options, 20_000)).toBe(20_000);
    expect(backoffDelay(1, 0, options, 3_600_000)).toBe(300_000);
  });
});

describe('field-level merge of a pulled record', () => {
  const keep = ['id', 'createdate'];
  const local = { id: 'p1', name: 'Milch', price: 150, description: 'frisch', createdate: 'L' };
  it('takes every upstream field when nothing local waits, also clearing fields', () => {
    expect(mergeRecord(local, { id: 'p1', name: 'Vollmilch', price: 160, createdate: 'U' }, undefined, keep)).toEqual({
      id: 'p1',
      name: 'Vollmilch',
      price: 160,
      createdate: 'L',
    });
  });
  it('keeps the local value of a field with an unpushed change', () => {
    expect(mergeRecord(local, { id: 'p1', name: 'Vollmilch', price: 160 }, new Set(['price', 'description']), keep)).toEqual({
      id: 'p1',
      name: 'Vollmilch',
      price: 150,
      description: 'frisch',
      createdate: 'L',
    });
  });
  it('takes a new record as the upstream sent it', () => {
    expect(mergeRecord(undefined, { id: 'u1', name: 'Brot' }, undefined, keep)).toEqual({ id: 'u1', name: 'Brot' });
  });
  it('compares records regardless of field order', () => {
    expect(sameRecord({ a: 1, b: { c: 2, d: 3 } }, { b: { d: 3, c: 2 }, a: 1 })).toBe(true);
    expect(sameRecord({ a: 1 }, { a: 2 })).toBe(false);
  });
});

describe('references in bodies', () => {
  it('finds and rewrites every id a body names', () => {
    const order = { store: 's1', products: [{ productId: 'p1', quantity: 1 }, { productId: 'p2', quantity: 2 }] };
    expect(referencesIn('order', order)).toEqual([
      { kind: 'store', id: 's1' },
      { kind: 'product', id: 'p1' },
      { kind: 'product', id: 'p2' },
    ]);
    expect(rewriteReferences('order', order, (kind, id) => `${kind}-${id}`)).toEqual({
      store: 'store-s1',
      products: [{ productId: 'product-p1', quantity: 1 }, { productId: 'product-p2', quantity: 2 }],
    });
    expect(rewriteReferences('category', { name: 'X', allowStore: ['a'], hideStore: ['b'] }, (_k, id) => id.toUpperCase())).toEqual({
      name: 'X',
      allowStore: ['A'],
      hideStore: ['B'],
    });
    expect(rewriteReferences('product', { category: 'c', supplier: 's', price: 1 }, (kind, id) => `${kind}:${id}`)).toEqual({
      category: 'category:c',
      supplier: 'supplier:s',
      price: 1,
    });
  });
});
