import type { ReactNode, Ref, TextareaHTMLAttributes } from 'react';
import { Field, splitFieldProps } from './field.tsx';

type TextareaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  error?: string;
  hint?: ReactNode;
  labelNote?: string;
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
