// Ubah Password (/password), in both shells: the signed-in user's own password. The server ends
// every other session of the account and answers a new token, which this session keeps.
import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRound } from 'lucide-react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import {
  ChangeOwnPasswordSchema,
  type ChangeOwnPassword,
  type LoginResponse,
} from '#common/auth.ts';
import { z } from '#common/zod.ts';
import { Button } from '#client/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { PasswordField } from '#client/components/ui/password-field.tsx';
import { toastError, toastSuccess } from '#client/components/ui/toast.ts';
import { api, ApiError, errorMessage } from '#client/lib/api-client.ts';
import { saveSession } from '#client/lib/session.ts';

const FormSchema = ChangeOwnPasswordSchema.extend({
  confirm_password: z.string().min(1, 'Konfirmasi password harus diisi'),
}).refine((form) => form.confirm_password === form.new_password, {
  message: 'Konfirmasi password tidak sama dengan password baru',
  path: ['confirm_password'],
});
type Form = z.infer<typeof FormSchema>;

const EMPTY: Form = { current_password: '', new_password: '', confirm_password: '' };
const NEW_HINT = 'Minimal 6 karakter. Sesi di perangkat lain akan diakhiri.';

export default function ChangePasswordPage() {
  const form = useForm<Form>({ resolver: zodResolver(FormSchema), defaultValues: EMPTY });
  const onSubmit = form.handleSubmit(async ({ current_password, new_password }) => {
    try {
      const input: ChangeOwnPassword = { current_password, new_password };
      const answer = await api.post<LoginResponse>('/auth/change-password', input);
      saveSession({ token: answer.access_token, user: answer.user });
      form.reset(EMPTY);
      toastSuccess('Password berhasil diubah');
    } catch (error) {
      // The server's reason about a field goes under that field, with focus on it.
      if (error instanceof ApiError && error.status === 400 && error.detail) {
        const field = /saat ini salah/.test(error.detail) ? 'current_password' : 'new_password';
        form.setError(field, { message: error.detail }, { shouldFocus: true });
        return;
      }
      toastError(errorMessage(error, 'Gagal mengubah password'));
    }
  });

  return (
    <div>
      <PageHeader
        title="Ubah Password"
        description="Ganti password akun Anda. Anda tetap masuk di perangkat ini."
      />
      <Card className="max-w-xl">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <KeyRound aria-hidden className="size-5 text-primary" />
            Password Akun
          </CardTitle>
          <CardDescription>
            Masukkan password saat ini, lalu password baru dua kali.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={onSubmit} noValidate className="grid gap-4">
            <PasswordFields form={form} />
            <div>
              <Button type="submit" loading={form.formState.isSubmitting}>
                Simpan Password
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}

/** The current password, then the new one twice. */
function PasswordFields({ form }: { form: UseFormReturn<Form> }) {
  const { errors } = form.formState;
  return (
    <>
      <PasswordField
        id="current-password"
        label="Password Saat Ini"
        autoComplete="current-password"
        required
        error={errors.current_password?.message}
        {...form.register('current_password')}
      />
      <PasswordField
        id="new-password"
        label="Password Baru"
        autoComplete="new-password"
        required
        error={errors.new_password?.message}
        hint={NEW_HINT}
        {...form.register('new_password')}
      />
      <PasswordField
        id="confirm-password"
        label="Konfirmasi Password Baru"
        autoComplete="new-password"
        required
        error={errors.confirm_password?.message}
        {...form.register('confirm_password')}
      />
    </>
  );
}
