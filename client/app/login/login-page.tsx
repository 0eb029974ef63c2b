// /login: email and password, inline error alert, toasts; a signed-in user is sent to /.
import { Eye, EyeOff, MessageCircle, ShieldCheck, Users, Zap } from 'lucide-react';
import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import { loginFieldErrors, type LoginField } from '../../../common/login-rules.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { describedBy, Field } from '../../components/ui/label.tsx';
import { PageSpinner } from '../../components/ui/spinner.tsx';
import { toastError, toastSuccess } from '../../components/ui/toast.ts';
import type { LoginResponse } from '../../../common/auth.ts';
import { api, errorMessage } from '../../lib/api-client.ts';
import { navigate } from '../../lib/navigation.ts';
import { saveSession, takeSessionNotice, useSession } from '../../lib/session.ts';
import { Brand } from '../shell/brand.tsx';

const FEATURES = [
  { icon: Zap, text: 'Kirim satu pesan ke ratusan nomor WhatsApp sekaligus' },
  { icon: ShieldCheck, text: 'Sistem poin yang transparan: 1 poin per nomor' },
  { icon: Users, text: 'Pantau hasil blast, top up dan riwayat poin' },
];

export default function LoginPage() {
  const session = useSession();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(() => takeSessionNotice());
  const [showPassword, setShowPassword] = useState(false);
  // A plain form (no form library, no zod): the sign-in page is the smallest download.
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<LoginField, string>>>({});

  useEffect(() => {
    if (session && !pending) navigate('/', { replace: true });
  }, [session, pending]);
  useEffect(() => {
    document.title = 'Masuk · Sebar';
  }, []);

  const clearMessages = () => {
    setError(null);
    setNotice(null);
  };

  const field = (name: LoginField) => ({
    name,
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      clearMessages();
      setValues((current) => ({ ...current, [name]: event.target.value }));
      setErrors((current) => ({ ...current, [name]: undefined }));
    },
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    clearMessages();
    const invalid = loginFieldErrors(values);
    setErrors(invalid);
    if (Object.keys(invalid).length > 0) return;
    try {
      setPending(true);
      const answer = await api.post<LoginResponse>(
        '/auth/login',
        { email: values.email.trim(), password: values.password },
        { auth: false },
      );
      saveSession({ token: answer.access_token, user: answer.user });
      toastSuccess(`Selamat datang, ${answer.user.username}!`, 'Login berhasil');
      navigate('/', { replace: true });
    } catch (failure) {
      const message = errorMessage(failure, 'Login gagal');
      setError(message);
      toastError(message, 'Login gagal');
    } finally {
      setPending(false);
    }
  };

  if (session === undefined || (session && !pending)) {
    return <PageSpinner className="min-h-screen" />;
  }

  return (
    <div className="flex min-h-screen flex-col bg-background lg:flex-row">
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
                <div className="relative">
                  <Input
                    id="password"
                    type={showPassword ? 'text' : 'password'}
                    autoComplete="current-password"
                    placeholder="Masukkan password"
                    required
                    className="pr-11"
                    aria-invalid={!!errors.password}
                    aria-describedby={describedBy('password', errors.password)}
                    {...field('password')}
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
              <Button type="submit" size="lg" className="mt-2 w-full" loading={pending}>
                {pending ? 'Signing In...' : 'Sign In'}
              </Button>
            </form>
          </Card>
          <p className="mt-8 hidden text-center text-xs text-muted-foreground lg:block">
            Sebar — WhatsApp Blast Manager
          </p>
        </div>
      </main>
      {/* After main in reading order (the h1 comes first), shown on the left from lg up. */}
      <aside
        aria-labelledby="brand-heading"
        className="relative hidden w-1/2 flex-col justify-between overflow-hidden bg-gradient-to-br from-emerald-700 via-green-700 to-teal-800 p-12 text-white lg:order-first lg:flex"
      >
        <div className="flex items-center gap-3">
          <span className="grid size-11 place-items-center rounded-xl bg-white/15">
            <MessageCircle aria-hidden className="size-6" />
          </span>
          <span className="text-2xl font-bold">Sebar</span>
        </div>
        <div className="max-w-md">
          <h2 id="brand-heading" className="text-4xl font-bold leading-tight">
            WhatsApp Blast Manager
          </h2>
          <p className="mt-4 text-lg text-white">
            Sistem manajemen WhatsApp blast profesional untuk menjangkau pelanggan Anda dengan
            cepat, terukur dan mudah dipantau.
          </p>
          <ul className="mt-8 grid gap-4">
            {FEATURES.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-center gap-3 text-white">
                <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-white/15">
                  <Icon aria-hidden className="size-5" />
                </span>
                {text}
              </li>
            ))}
          </ul>
        </div>
        <p className="text-sm text-white">© 2025 Sebar. Hak cipta dilindungi.</p>
        <div
          aria-hidden
          className="pointer-events-none absolute -right-24 -top-24 size-80 rounded-full bg-white/10"
        />
        <div
          aria-hidden
          className="pointer-events-none absolute -bottom-32 -left-16 size-96 rounded-full bg-white/5"
        />
      </aside>

      <footer className="pb-8 text-center text-xs text-muted-foreground lg:hidden">
        © 2025 Sebar. Hak cipta dilindungi.
      </footer>
    </div>
  );
}
