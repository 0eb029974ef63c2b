// Browser entry: styles and the application root.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { earlyData, loadSignedInArea } from './app/pages.ts';
import { startEarly } from './lib/api-client.ts';
import { readStoredSession } from './lib/session.ts';
import './styles.css';

// A saved session: the signed-in area's code and the first screen's data start downloading now,
// before the first render.
const saved = readStoredSession();
if (saved) {
  void loadSignedInArea(saved.user.role, window.location.pathname);
  for (const path of earlyData(saved.user.role, window.location.pathname)) {
    startEarly(path, saved.token);
  }
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
