import { formatUsPhone } from '@waitlist/contract';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { toVerificationCode } from '../../lib/verification-code.ts';
import { TextField, type TextFieldProps } from './text-field.tsx';

type FormattedTextFieldProps<T extends FieldValues> = Omit<
  TextFieldProps,
  'name' | 'value' | 'onChange' | 'onBlur' | 'onPaste' | 'ref'
> & {
  control: Control<T>;
  name: FieldPath<T>;
  /** Formats as the user types (a phone number, a card number, a code). */
  format: (value: string) => string;
  /** Pasted text is formatted too (instead of the browser inserting it, and maxLength cutting it). */
  formatPaste?: boolean;
  /** Runs on every typed change, before the formatted value is stored (e.g. to clear a server error). */
  onValueChange?: () => void;
  /** Runs after the field's own blur handling, with the field's value and a way to replace it. */
  onBlurValue?: (value: string, change: (value: string) => void) => void;
};

/** The one format-as-you-type input of the UI kit: a TextField bound to a react-hook-form field, showing that field's error. */
export function FormattedTextField<T extends FieldValues>({
  control,
  name,
  format,
  formatPaste,
  onValueChange,
  onBlurValue,
  ...textFieldProps
}: FormattedTextFieldProps<T>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          error={fieldState.error?.message}
          {...textFieldProps}
          name={field.name}
          ref={field.ref}
          value={field.value ?? ''}
          onBlur={() => {
            onBlurValue?.(field.value, field.onChange);
            field.onBlur();
          }}
          onChange={(event) => {
            onValueChange?.();
            field.onChange(format(event.target.value));
          }}
          onPaste={
            formatPaste
              ? (event) => {
                  event.preventDefault();
                  field.onChange(format(event.clipboardData.getData('text')));
                }
              : undefined
          }
        />
      )}
    />
  );
}

/** A kind of formatted field takes what FormattedTextField takes, but its own formatter (and type). */
type FieldKindProps<T extends FieldValues> = Omit<FormattedTextFieldProps<T>, 'format' | 'type'>;

const usPhoneInput = {
  type: 'tel',
  inputMode: 'tel',
  autoComplete: 'tel-national',
  placeholder: '(555) 123-4567',
} as const;

/**
 * A US phone number, formatted as typed: "(555) 123-4567", at most 10 digits. A pasted number replaces the
 * field: "+1 (555) 123-4567" loses its country code, not its last digit, and a foreign one ("+44 20 7946
 * 0958") stays as written so the form refuses it instead of cutting it into another number (issue 27).
 */
export function UsPhoneField<T extends FieldValues>(props: FieldKindProps<T>) {
  return <FormattedTextField {...usPhoneInput} {...props} format={formatUsPhone} formatPaste />;
}

// No maxLength: the browser would cut "123-456" to "123-45" before the digits are kept.
const codeInput = { inputMode: 'numeric', autoComplete: 'one-time-code', placeholder: '123456' } as const;

/** The 6-digit code from an email: digits only, "123456", and the browser may fill it from the message. */
export function VerificationCodeField<T extends FieldValues>(props: FieldKindProps<T>) {
  return <FormattedTextField className="field--code" {...codeInput} {...props} format={toVerificationCode} />;
}
