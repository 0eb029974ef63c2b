// Browser entry: styles, the saved session and the application root.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { preloadSignedIn } from './app/pages.ts';
import { getSession, loadSession } from './lib/session.ts';
import './styles.css';

loadSession();
const session = getSession();
// The shell and the screen at the address download alongside the signed-in area's code.
if (session && window.location.pathname !== '/login') {
  preloadSignedIn(session.user.role, window.location.pathname);
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
