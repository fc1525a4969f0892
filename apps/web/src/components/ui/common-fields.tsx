import type { BoundField } from '../../lib/form-fields.ts';
import { TextField, type TextFieldProps } from './text-field.tsx';

type CommonFieldProps = Omit<TextFieldProps, 'label' | 'type'> & { label?: string };

/** An email address field: the right keyboard and autofill everywhere an email is asked for. */
export function EmailField({ label = 'Email', ...props }: CommonFieldProps) {
  return <TextField label={label} type="email" autoComplete="email" inputMode="email" {...props} />;
}

/** A password field; `isNew` asks password managers to suggest a new one instead of filling the saved one. */
export function PasswordField({
  label = 'Password',
  isNew = false,
  ...props
}: CommonFieldProps & { isNew?: boolean }) {
  return (
    <TextField
      label={label}
      type="password"
      autoComplete={isNew ? 'new-password' : 'current-password'}
      {...props}
    />
  );
}

/** First and last name side by side, as every form that asks for a person's name asks for it. */
export function NameFields({ firstName, lastName }: { firstName: BoundField; lastName: BoundField }) {
  return (
    <div className="form__row form__row--2">
      <TextField label="First name" autoComplete="given-name" {...firstName} />
      <TextField label="Last name" autoComplete="family-name" {...lastName} />
    </div>
  );
}
