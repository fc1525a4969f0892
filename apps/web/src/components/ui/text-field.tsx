import type { InputHTMLAttributes, Ref } from 'react';
import { Field, type FieldComponentProps, splitFieldProps } from './field.tsx';

export type TextFieldProps = InputHTMLAttributes<HTMLInputElement> &
  FieldComponentProps & {
    ref?: Ref<HTMLInputElement>;
  };

export function TextField({ ref, ...props }: TextFieldProps) {
  const [field, inputProps] = splitFieldProps(props);
  return (
    <Field {...field}>
      {(control) => <input ref={ref} className="field__input" {...control} {...inputProps} />}
    </Field>
  );
}
