// The fields the settings cards of 'Pengiriman' share: rows of text fields, the write-only
// secrets, and the read-only webhook address.
import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { PasswordField } from '#client/components/ui/password-field.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';

/** One field of a settings card: its name in the form, its input's id and its label. */
export interface FieldSpec<Name extends string> {
  name: Name;
  id: string;
  label: string;
}

/** A text field may also show an example and a hint. */
export interface TextSpec<Name extends string> extends FieldSpec<Name> {
  placeholder?: string;
  hint?: string;
}

/** A settings card's handle on its fields, and what their check said. */
interface FieldsProps<Name extends string> {
  errors: Partial<Record<Name, { message?: string }>> | undefined;
  /** The form's handle on one field. */
  field: (name: Name) => UseFormRegisterReturn;
}

/** What one field is given: its id, what its check said, and the form's handle on it. */
function wired<Name extends string>({ errors, field }: FieldsProps<Name>, spec: FieldSpec<Name>) {
  return { id: spec.id, error: errors?.[spec.name]?.message, ...field(spec.name) };
}

const COLUMNS = { 2: 'sm:grid-cols-2', 3: 'sm:grid-cols-3' } as const;

/** Text fields side by side on a wide screen (`numeric`: they take figures); `children` follow. */
export function FieldRow<Name extends string>({
  fields,
  columns = 2,
  numeric = false,
  children,
  ...props
}: FieldsProps<Name> & {
  fields: readonly TextSpec<Name>[];
  columns?: keyof typeof COLUMNS;
  numeric?: boolean;
  children?: ReactNode;
}) {
  return (
    <div className={`grid items-start gap-4 ${COLUMNS[columns]}`}>
      {fields.map((spec) => (
        <TextField
          key={spec.name}
          label={spec.label}
          placeholder={spec.placeholder}
          hint={spec.hint}
          inputMode={numeric ? 'numeric' : undefined}
          {...wired(props, spec)}
        />
      ))}
      {children}
    </div>
  );
}

/** The secrets, never shown again: each says whether one is saved (a blank one keeps it). */
export function SecretFields<Name extends string>({
  secrets,
  saved,
  ...props
}: FieldsProps<Name> & {
  secrets: readonly FieldSpec<Name>[];
  saved: Record<`${Name}_set`, boolean>;
}) {
  return secrets.map((spec) => (
    <PasswordField
      key={spec.name}
      label={spec.label}
      autoComplete="off"
      hint={saved[`${spec.name}_set`] ? 'Tersimpan. Kosongkan jika tidak diubah.' : 'Belum diisi.'}
      {...wired(props, spec)}
    />
  ));
}

/** The address on this site where the webhooks come in, to copy. */
export function WebhookField(props: { id: string; label: string; path: string; hint: string }) {
  const { path, ...field } = props;
  // Selected whole when focused: on a phone the field is narrower than the URL, to be copied.
  return (
    <TextField
      {...field}
      readOnly
      value={`${window.location.origin}${path}`}
      onFocus={(event) => event.currentTarget.select()}
    />
  );
}
