// The sign-in form: email and password checked by the shared LoginSchema, the session notice and
// the server's message above them.
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { LoginSchema, type Login } from '../../../common/auth.ts';
import type { z } from '../../../common/zod.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { describedBy, Field } from '../../components/ui/label.tsx';
import { PasswordInput } from '../../components/ui/password-input.tsx';
import type { SignIn } from './use-sign-in.ts';

type LoginForm = z.input<typeof LoginSchema>;

export function LoginForm({ pending, error, notice, clearMessages, signIn }: SignIn) {
  const form = useForm<LoginForm, unknown, Login>({
    resolver: zodResolver(LoginSchema),
    defaultValues: { email: '', password: '' },
    // A field's message stays until the next submit, unless the field is typed in; the focus
    // stays on the button.
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
  });
  const { errors } = form.formState;
  // Typing in a field clears its message and the messages above the form.
  const field = (name: keyof LoginForm) =>
    form.register(name, {
      onChange: () => {
        clearMessages();
        form.clearErrors(name);
      },
    });

  return (
    <form
      onSubmit={form.handleSubmit(signIn, clearMessages)}
      noValidate
      className="mt-6 grid gap-4"
      aria-label="Masuk"
    >
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
      <Field id="email" label="Email" error={errors.email?.message} required>
        <Input
          id="email"
          type="email"
          autoComplete="email"
          placeholder="nama@contoh.com"
          required
          aria-invalid={!!errors.email}
          aria-describedby={describedBy('email', errors.email?.message)}
          {...field('email')}
        />
      </Field>
      <Field id="password" label="Password" error={errors.password?.message} required>
        <PasswordInput
          id="password"
          autoComplete="current-password"
          placeholder="Masukkan password"
          required
          aria-invalid={!!errors.password}
          aria-describedby={describedBy('password', errors.password?.message)}
          {...field('password')}
        />
      </Field>
      <Button type="submit" size="lg" className="mt-2 w-full" loading={pending}>
        {pending ? 'Signing In...' : 'Sign In'}
      </Button>
    </form>
  );
}
