// The application root: providers, the two top-level routes and the toaster.
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { Toaster } from '../components/ui/toast.ts';
import { queryClient } from '../lib/query-client.ts';
import { getSession, loadSession, subscribeSession } from '../lib/session.ts';
import LoginPage from './login/login-page.tsx';
import { RootGate } from './root.tsx';

// Signing out (or an expired session) drops every cached answer of the previous user.
subscribeSession(() => {
  if (getSession() === null) queryClient.clear();
});

export function App() {
  // Read after the first paint, so the spinner shows while the saved session is read.
  useEffect(loadSession, []);
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/*" element={<RootGate />} />
        </Routes>
      </BrowserRouter>
      <Toaster />
    </QueryClientProvider>
  );
}
