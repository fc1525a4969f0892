/** Typed application errors thrown by services; one error handler maps them to the API's JSON shape. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends AppError {
  constructor(message: string, errors?: Record<string, string>) {
    super(400, message, errors);
  }
}
export class Unauthorized extends AppError {
  constructor(message: string) {
    super(401, message);
  }
}
export class Forbidden extends AppError {
  constructor(message: string) {
    super(403, message);
  }
}
export class NotFound extends AppError {
  constructor(message: string) {
    super(404, message);
  }
}
export class Conflict extends AppError {
  constructor(message: string, errors?: Record<string, string>) {
    super(409, message, errors);
  }
}
export class TooManyRequests extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, undefined, { 'retry-after': String(retryAfterSeconds) });
  }
}
/** A provider we depend on could not be reached; the message says so in the user's words, never internals. */
export class ServiceUnavailable extends AppError {
  constructor(message: string) {
    super(503, message);
  }
}

/**
 * Why a text was refused: the business's number is not verified, or the phone opted out (HTTP 403). Thrown
 * by features/messaging's texting; here because the features that queue texts tell the two apart.
 */
export class TextingRefused extends Forbidden {
  constructor(
    readonly reason: 'number_not_verified' | 'opted_out',
    message: string,
  ) {
    super(message);
  }
}
