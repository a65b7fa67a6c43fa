import type { components } from './api-types.js';

/** The error bodies the API answers with: the standard shape, the validation shape of list queries, or search still building. */
export type ApiErrorBody =
  | components['schemas']['StandardError']
  | components['schemas']['ValidationError']
  | components['schemas']['SearchUnavailable'];

/** What a person can act on: the standard shape's message, the fields of the validation shape, or the search notice. */
function messageOf(status: number, body: ApiErrorBody | string | undefined): string {
  if (typeof body === 'string') return body.trim() || `HTTP ${status}`;
  if (body === undefined) return `HTTP ${status}`;
  if ('message' in body) return body.message;
  if (typeof body.error === 'string') return body.error;
  const fields = Object.entries(body.error.fieldErrors).map(([field, problems]) => `${field}: ${problems.join(', ')}`);
  return [...body.error.formErrors, ...fields].join('; ') || `HTTP ${status}`;
}

/**
 * The server answered with an error status. `body` is the answer as the API
 * sent it (a string when it was not JSON, e.g. from a proxy in between);
 * `message` is the API's own text, ready to show.
 */
export class StoreApiError extends Error {
  override readonly name = 'StoreApiError';

  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | string | undefined,
    /** `METHOD /path` of the call, for logs. */
    readonly request: string,
  ) {
    super(messageOf(status, body));
  }
}

/** No answer arrived (server stopped, connection dropped, timeout), also after the retries an idempotent call gets. */
export class StoreNetworkError extends Error {
  override readonly name = 'StoreNetworkError';
}
