import type { z } from 'zod';
import { BadRequest, ValidationFailed } from '../services/errors.js';

type Issue = z.core.$ZodIssue;

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

const describeValue = (value: unknown) => {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/** One readable sentence per problem, each naming the field. */
function describeIssues(issues: readonly Issue[], input: unknown): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  for (const issue of issues) {
    const field = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({ field: field ? `${field}.${key}` : key, message: 'is not a writable field (unknown or read-only)' });
      }
      continue;
    }
    const value = valueAt(input, issue.path);
    if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && value === undefined) {
      out.push({ field, message: 'is required' });
    } else if (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_format') {
      out.push({ field, message: `${issue.message} (got ${describeValue(value)})` });
    } else {
      out.push({ field, message: issue.message });
    }
  }
  return out;
}

/** Why a body is not a JSON object at all, or undefined when it is one. */
function bodyShapeProblem(body: unknown): string | undefined {
  if (body === undefined) return 'Request body is missing: send a JSON object with Content-Type: application/json';
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'Request body must be a JSON object';
  return undefined;
}

/** Parses a JSON write body; a failure is a 400 in the standard shape naming each field. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const shapeProblem = bodyShapeProblem(body);
  if (shapeProblem !== undefined) throw new BadRequest(shapeProblem);
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const problems = describeIssues(result.error.issues, body);
  throw new BadRequest(problems.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)).join('; '));
}

function validationFailure(issues: readonly Issue[], input: unknown): ValidationFailed {
  // A body's own key names the field, so no inherited name ("valueOf", "__proto__") may answer for one.
  const fieldErrors: Record<string, string[]> = Object.create(null);
  const formErrors: string[] = [];
  for (const problem of describeIssues(issues, input)) {
    if (problem.field === '') formErrors.push(problem.message);
    else (fieldErrors[problem.field] ??= []).push(problem.message);
  }
  return new ValidationFailed(fieldErrors, formErrors);
}

/** Parses list query parameters; a failure is a 400 in the validation shape. */
export function parseQuery<T extends z.ZodType>(schema: T, query: unknown): z.infer<T> {
  const result = schema.safeParse(query);
  if (result.success) return result.data;
  throw validationFailure(result.error.issues, query);
}

/**
 * Parses a JSON body of an endpoint that answers every 400 in the validation
 * shape (one that shares its fields with a query, as the day's report does).
 */
export function parseBodyFields<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const shapeProblem = bodyShapeProblem(body);
  if (shapeProblem !== undefined) throw new ValidationFailed({}, [shapeProblem]);
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw validationFailure(result.error.issues, body);
}
