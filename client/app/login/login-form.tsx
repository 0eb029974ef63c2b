// The sign-in form: email and password, the session notice and the server's message above them.
import { useState, type ChangeEvent, type FormEvent } from 'react';
import type { Login } from '#common/auth.ts';
import { loginFieldErrors, type LoginField } from '#common/login-rules.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { describedBy, Field } from '#client/components/ui/label.tsx';
import { PasswordInput } from '#client/components/ui/password-input.tsx';
import type { SignIn } from './use-sign-in.ts';

export function LoginForm({ pending, error, notice, clearMessages, signIn }: SignIn) {
  // A plain form (no form library, no zod): the sign-in page is the smallest download.
  const [values, setValues] = useState<Login>({ email: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<LoginField, string>>>({});

  // Typing in a field clears its message and the messages above the form.
  const field = (name: LoginField) => ({
    name,
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      clearMessages();
      setValues((current) => ({ ...current, [name]: event.target.value }));
      setErrors((current) => ({ ...current, [name]: undefined }));
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    clearMessages();
    const invalid = loginFieldErrors(values);
    setErrors(invalid);
    if (Object.keys(invalid).length > 0) return;
    void signIn({ email: values.email.trim(), password: values.password });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="mt-6 grid gap-4" aria-label="Masuk">
      {notice && (
        <Alert variant="warning" role="alert" data-session-notice="">
          {notice}
        </Alert>
      )}
      {error && (
        <Alert variant="destructive" data-login-error="">
          {error}
        </Alert>
      )}
      <Field id="email" label="Email" error={errors.email} required>
        <Input
          id="email"
          type="email"
          autoComplete="email"
          placeholder="nama@contoh.com"
          required
          aria-invalid={!!errors.email}
          aria-describedby={describedBy('email', errors.email)}
          {...field('email')}
        />
      </Field>
      <Field id="password" label="Password" error={errors.password} required>
        <PasswordInput
          id="password"
          autoComplete="current-password"
          placeholder="Masukkan password"
          required
          aria-invalid={!!errors.password}
          aria-describedby={describedBy('password', errors.password)}
          {...field('password')}
        />
      </Field>
      <Button type="submit" size="lg" className="mt-2 w-full" loading={pending}>
        {pending ? 'Signing In...' : 'Sign In'}
      </Button>
    </form>
  );
}
