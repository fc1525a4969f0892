import {
  type FieldError,
  type FieldErrors,
  type FieldValues,
  get,
  type Path,
  type RegisterOptions,
  type UseFormRegister,
  type UseFormRegisterReturn,
} from 'react-hook-form';

/** A field's error as its component shows it: the message, and whether it is read out when it appears. */
export type BoundError = { error: string | undefined; announceError?: boolean };

/** What a field component (TextField, SelectField, TextareaField…) gets from its form: the registration and its error. */
export type BoundField = UseFormRegisterReturn & BoundError;

/**
 * The error of one field. With `announceServerErrors`, a message the server sent (set with type "server")
 * is read out when it appears, since it arrives after the tap, away from where the owner is looking.
 */
export function errorOf<T extends FieldValues>(
  errors: FieldErrors<T>,
  name: Path<T>,
  announceServerErrors = false,
): BoundError {
  const fieldError = get(errors, name) as FieldError | undefined;
  return announceServerErrors && fieldError?.type === 'server'
    ? { error: fieldError.message, announceError: true }
    : { error: fieldError?.message };
}

/**
 * Registers a field and hands it its own error message in one call, so a form writes
 * `{...field('firstName')}` instead of pairing `register('firstName')` with `errors.firstName?.message` by hand.
 */
export function bindFields<T extends FieldValues>(
  register: UseFormRegister<T>,
  errors: FieldErrors<T>,
  { announceServerErrors = false }: { announceServerErrors?: boolean } = {},
) {
  return <N extends Path<T>>(name: N, options?: RegisterOptions<T, N>): BoundField => ({
    ...register(name, options),
    ...errorOf(errors, name, announceServerErrors),
  });
}
