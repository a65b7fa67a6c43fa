import { expect } from 'vitest';

/** A timestamp as the API returns it: UTC with milliseconds. */
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The spec's standard error shape. */
export const standardError = (statusCode: number, message: string | RegExp) => ({
  statusCode,
  message: typeof message === 'string' ? message : expect.stringMatching(message),
  timestamp: expect.stringMatching(ISO),
  path: expect.stringMatching(/^\/api\/v1\//),
});

/** The spec's validation shape with errors on exactly the given fields. */
export const validationError = (fieldErrors: Record<string, string[]>, formErrors: string[] = []) => ({
  error: { formErrors, fieldErrors },
});

/** Compares strings by their UTF-8 bytes, the order SQLite sorts TEXT in. */
export const byUtf8 = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
