// /login: email and password, inline error alert, toasts; a signed-in user is sent to /.
import { zodResolver } from '@hookform/resolvers/zod';
import { Eye, EyeOff, MessageCircle, ShieldCheck, Users, Zap } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Navigate, useNavigate } from 'react-router';
import { LoginSchema, type Login } from '../../../common/auth.ts';
import type { z } from '../../../common/zod.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { describedBy, Field } from '../../components/ui/label.tsx';
import { PageSpinner } from '../../components/ui/spinner.tsx';
import { toastError, toastSuccess } from '../../components/ui/toast.ts';
import { useLogin } from '../../features/auth/api.ts';
import { errorMessage } from '../../lib/api-client.ts';
import { saveSession, takeSessionNotice, useSession } from '../../lib/session.ts';
import { Brand } from '../shell/shell-layout.tsx';

const FEATURES = [
  { icon: Zap, text: 'Kirim satu pesan ke ratusan nomor WhatsApp sekaligus' },
  { icon: ShieldCheck, text: 'Sistem poin yang transparan: 1 poin per nomor' },
  { icon: Users, text: 'Pantau hasil blast, top up dan riwayat poin' },
];

export default function LoginPage() {
  const session = useSession();
  const navigate = useNavigate();
  const login = useLogin();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(() => takeSessionNotice());
  const [showPassword, setShowPassword] = useState(false);
  const form = useForm<z.input<typeof LoginSchema>, unknown, Login>({
    resolver: zodResolver(LoginSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;

  if (session === undefined) return <PageSpinner className="min-h-screen" />;
  if (session && !login.isPending) return <Navigate to="/" replace />;

  const clearMessages = () => {
    setError(null);
    setNotice(null);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    clearMessages();
    try {
      const answer = await login.mutateAsync(values);
      saveSession({ token: answer.access_token, user: answer.user });
      toastSuccess(`Selamat datang, ${answer.user.username}!`, 'Login berhasil');
      navigate('/', { replace: true });
    } catch (failure) {
      const message = errorMessage(failure, 'Login gagal');
      setError(message);
      toastError(message, 'Login gagal');
    }
  });

  return (
    <div className="flex min-h-screen bg-background">
      <section className="relative hidden w-1/2 flex-col justify-between overflow-hidden bg-gradient-to-br from-emerald-600 via-green-600 to-teal-700 p-12 text-white lg:flex">
        <div className="flex items-center gap-3">
          <span className="grid size-11 place-items-center rounded-xl bg-white/15">
            <MessageCircle aria-hidden className="size-6" />
          </span>
          <span className="text-2xl font-bold">Sebar</span>
        </div>
        <div className="max-w-md">
          <h2 className="text-4xl font-bold leading-tight">WhatsApp Blast Manager</h2>
          <p className="mt-4 text-lg text-white/85">
            Sistem manajemen WhatsApp blast profesional untuk menjangkau pelanggan Anda dengan
            cepat, terukur dan mudah dipantau.
          </p>
          <ul className="mt-8 grid gap-4">
            {FEATURES.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-center gap-3 text-white/90">
                <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-white/15">
                  <Icon aria-hidden className="size-5" />
                </span>
                {text}
              </li>
            ))}
          </ul>
        </div>
        <p className="text-sm text-white/70">© 2025 Sebar. Hak cipta dilindungi.</p>
        <div
          aria-hidden
          className="pointer-events-none absolute -right-24 -top-24 size-80 rounded-full bg-white/10"
        />
        <div
          aria-hidden
          className="pointer-events-none absolute -bottom-32 -left-16 size-96 rounded-full bg-white/5"
        />
      </section>

      <main className="flex flex-1 flex-col items-center justify-center px-4 py-10 sm:px-8">
        <div className="w-full max-w-md">
          <div className="mb-8 lg:hidden">
            <Brand subtitle="WhatsApp Blast Manager" />
          </div>
          <Card className="p-6 shadow-md sm:p-8">
            <h1 className="text-2xl font-bold tracking-tight">Masuk ke akun Anda</h1>
            <p className="mt-1 text-sm text-muted-foreground">
              Sistem manajemen WhatsApp blast profesional. Masukkan email dan password Anda.
            </p>

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
              <Field id="email" label="Email" error={errors.email?.message} required>
                <Input
                  id="email"
                  type="email"
                  autoComplete="email"
                  placeholder="nama@contoh.com"
                  required
                  aria-invalid={!!errors.email}
                  aria-describedby={describedBy('email', errors.email?.message)}
                  {...form.register('email', { onChange: clearMessages })}
                />
              </Field>
              <Field id="password" label="Password" error={errors.password?.message} required>
                <div className="relative">
                  <Input
                    id="password"
                    type={showPassword ? 'text' : 'password'}
                    autoComplete="current-password"
                    placeholder="Masukkan password"
                    required
                    className="pr-11"
                    aria-invalid={!!errors.password}
                    aria-describedby={describedBy('password', errors.password?.message)}
                    {...form.register('password', { onChange: clearMessages })}
                  />
                  <button
                    type="button"
                    onClick={() => setShowPassword((shown) => !shown)}
                    aria-label={showPassword ? 'Sembunyikan password' : 'Tampilkan password'}
                    aria-pressed={showPassword}
                    className="absolute inset-y-0 right-0 grid w-11 place-items-center rounded-r-md text-muted-foreground hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                  >
                    {showPassword ? (
                      <EyeOff aria-hidden className="size-4" />
                    ) : (
                      <Eye aria-hidden className="size-4" />
                    )}
                  </button>
                </div>
              </Field>
              <Button type="submit" size="lg" className="mt-2 w-full" loading={login.isPending}>
                {login.isPending ? 'Signing In...' : 'Sign In'}
              </Button>
            </form>
          </Card>
          <p className="mt-8 text-center text-xs text-muted-foreground lg:hidden">
            © 2025 Sebar. Hak cipta dilindungi.
          </p>
          <p className="mt-8 hidden text-center text-xs text-muted-foreground lg:block">
            Sebar — WhatsApp Blast Manager
          </p>
        </div>
      </main>
    </div>
  );
}
