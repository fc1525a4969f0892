import { formatUsPhone } from '@waitlist/contract';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
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

/** The one format-as-you-type input of the UI kit: a TextField bound to a react-hook-form field. */
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
      render={({ field }) => (
        <TextField
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

/** A US phone number, formatted as typed: "(555) 123-4567". */
export function UsPhoneField<T extends FieldValues>(
  props: Omit<FormattedTextFieldProps<T>, 'format' | 'type'>,
) {
  return (
    <FormattedTextField
      type="tel"
      inputMode="tel"
      autoComplete="tel-national"
      placeholder="(555) 123-4567"
      {...props}
      format={formatUsPhone}
    />
  );
}
