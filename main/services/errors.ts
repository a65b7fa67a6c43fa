/**
 * Errors a service throws for the HTTP layer to answer in the spec's shapes.
 * Messages are read by people integrating a till: they name the field, the
 * value or the record, and say what would be accepted.
 */
export abstract class ApiError extends Error {
  abstract readonly status: number;
}

export class BadRequest extends ApiError {
  readonly status = 400;
}

export class NotFound extends ApiError {
  readonly status = 404;
  constructor(resource: string, id: string) {
    super(`${resource} ${JSON.stringify(id)} not found`);
  }
}

/** A sign-in that has ended (expired, signed out, its key revoked): answered 401, so the page asks for the key again. */
export class Unauthorized extends ApiError {
  readonly status = 401;
}

export class Forbidden extends ApiError {
  readonly status = 403;
  /** Why the request was refused, for the log only: the answer stays `Forbidden`. */
  readonly reason: string;
  constructor(reason: string) {
    super('Forbidden');
    this.reason = reason;
  }
}

export class FeatureNotAvailable extends ApiError {
  readonly status = 403;
  constructor() {
    super('Feature not available');
  }
}

export class Conflict extends ApiError {
  readonly status = 409;
  /** The record the request collided with, answered as `data` beside the message. */
  readonly data: unknown;
  constructor(message: string, data?: unknown) {
    super(message);
    this.data = data;
  }
}

export class PayloadTooLarge extends ApiError {
  readonly status = 413;
}

/** A key asked more often than a limit allows (see http/rate-limit.ts): answered 429. */
export class TooManyRequests extends ApiError {
  readonly status = 429;
}

/** Invalid list query: answered in the validation shape. */
export class ValidationFailed extends ApiError {
  readonly status = 400;
  readonly formErrors: string[];
  readonly fieldErrors: Record<string, string[]>;
  constructor(fieldErrors: Record<string, string[]>, formErrors: string[] = []) {
    super('Invalid query parameters');
    this.fieldErrors = fieldErrors;
    this.formErrors = formErrors;
  }
}

/** Product search cannot answer yet: answered as `{ error }` with 503. */
export class SearchUnavailable extends ApiError {
  readonly status = 503;
}

export class UnprocessableEntity extends ApiError {
  readonly status = 422;
}


/** A key of this kind, or for this store, may not do what was asked: 403 with a message saying why. */
export class NotAllowed extends ApiError {
  readonly status = 403;
}

/** What was asked for is no longer kept here (a change feed from before its horizon). */
export class Gone extends ApiError {
  readonly status = 410;
}

/** A condition the request set (`Sync-Base-Updated-At`) does not hold: answered 412. */
export class PreconditionFailed extends ApiError {
  readonly status = 412;
}
