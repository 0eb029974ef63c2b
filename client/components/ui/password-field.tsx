// PasswordField: a Field around one PasswordInput, wired as TextField wires its Input.
import type { ComponentProps, ReactNode } from 'react';
import { describedBy, Field } from './label.tsx';
import { PasswordInput } from './password-input.tsx';

export interface PasswordFieldProps extends Omit<ComponentProps<typeof PasswordInput>, 'id'> {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: string;
}

/** Spread react-hook-form's `register(name)` into it; `required` marks the label and the input. */
export function PasswordField({ id, label, error, hint, required, ...input }: PasswordFieldProps) {
  return (
    <Field id={id} label={label} error={error} hint={hint} required={required}>
      <PasswordInput
        id={id}
        required={required}
        aria-invalid={!!error}
        aria-describedby={describedBy(id, error, hint)}
        {...input}
      />
    </Field>
  );
}
