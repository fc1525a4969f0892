import type { Ref, TextareaHTMLAttributes } from 'react';
import { Field, type FieldComponentProps, splitFieldProps } from './field.tsx';

type TextareaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> &
  FieldComponentProps & {
    ref?: Ref<HTMLTextAreaElement>;
  };

export function TextareaField({ ref, 'aria-describedby': describedBy, ...props }: TextareaFieldProps) {
  const [field, textareaProps] = splitFieldProps(props);
  return (
    <Field {...field} describedBy={describedBy} hintAs="div">
      {({ 'aria-describedby': ariaDescribedBy, ...control }) => (
        <textarea
          ref={ref}
          className="field__input field__textarea"
          {...control}
          {...textareaProps}
          aria-describedby={ariaDescribedBy}
        />
      )}
    </Field>
  );
}
