// /login: the sign-in form beside the brand panel; a signed-in user is sent to /.
import { useEffect } from 'react';
import { Card } from '#client/components/ui/card.tsx';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { navigate } from '#client/lib/navigation.ts';
import { useSession } from '#client/lib/session.ts';
import { Brand } from '#client/app/shell/brand.tsx';
import { BrandPanel } from './brand-panel.tsx';
import { LoginForm } from './login-form.tsx';
import { useSignIn } from './use-sign-in.ts';

export default function LoginPage() {
  const session = useSession();
  const signIn = useSignIn();
  // While signing in, the form's own success path navigates (after its toast).
  const redirect = session && !signIn.pending;

  useEffect(() => {
    if (redirect) navigate('/', { replace: true });
  }, [redirect]);
  useEffect(() => {
    document.title = 'Masuk · Sebar';
  }, []);

  if (session === undefined || redirect) return <PageSpinner className="min-h-screen" />;

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
            <LoginForm {...signIn} />
          </Card>
          <p className="mt-8 hidden text-center text-xs text-muted-foreground lg:block">
            Sebar — WhatsApp Blast Manager
          </p>
        </div>
      </main>
      <BrandPanel />
      <footer className="pb-8 text-center text-xs text-muted-foreground lg:hidden">
        © 2025 Sebar. Hak cipta dilindungi.
      </footer>
    </div>
  );
}
