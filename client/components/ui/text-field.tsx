// TextField: a Field around one Input, wired the way every form wires it (id, error, hint).
import type { ComponentProps, ReactNode } from 'react';
import { Input } from './input.tsx';
import { describedBy, Field } from './label.tsx';

export interface TextFieldProps extends Omit<ComponentProps<typeof Input>, 'id' | 'required'> {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: string;
  /** Marks the label; the schema, not the browser, refuses a blank value. */
  required?: boolean;
  fieldClassName?: string;
}

/** Spread react-hook-form's `register(name)` into it, with any other Input attribute. */
export function TextField({
  id,
  label,
  error,
  hint,
  required,
  fieldClassName,
  ...input
}: TextFieldProps) {
  return (
    <Field
      id={id}
      label={label}
      error={error}
      hint={hint}
      required={required}
      className={fieldClassName}
    >
      <Input
        id={id}
        aria-invalid={!!error}
        aria-describedby={describedBy(id, error, hint)}
        {...input}
      />
    </Field>
  );
}
