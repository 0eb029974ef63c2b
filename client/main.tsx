// Browser entry: styles and the application root.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { loadSignedInArea } from './app/pages.ts';
import { readStoredSession } from './lib/session.ts';
import './styles.css';

// A saved session: the signed-in area's code starts downloading now, before the first render.
const saved = readStoredSession();
if (saved) void loadSignedInArea(saved.user.role, window.location.pathname);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
