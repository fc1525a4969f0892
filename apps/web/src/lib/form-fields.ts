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

/** What a field component (TextField, SelectField, TextareaField…) gets from its form: the registration and its error. */
export type BoundField = UseFormRegisterReturn & { error: string | undefined };

/**
 * Registers a field and hands it its own error message in one call, so a form writes
 * `{...field('firstName')}` instead of pairing `register('firstName')` with `errors.firstName?.message` by hand.
 */
export function bindFields<T extends FieldValues>(register: UseFormRegister<T>, errors: FieldErrors<T>) {
  return <N extends Path<T>>(name: N, options?: RegisterOptions<T, N>): BoundField => ({
    ...register(name, options),
    error: (get(errors, name) as FieldError | undefined)?.message,
  });
}
