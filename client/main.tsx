// Browser entry: styles and the application root.
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { loadSignedInArea } from './app/pages.ts';
import { loadSession, readStoredSession } from './lib/session.ts';
import './styles.css';

// A saved session: the first render waits for the signed-in area's code (index.html's start-up
// script, scripts/start-preload.ts, already asked for it and for the first screen's data: these
// imports take those downloads). Rendered before it came, the app would show a spinner and then
// hold the finished screen back: React shows content that replaces a Suspense fallback no sooner
// than 300 ms after the fallback.
const saved = readStoredSession();
// A failed download does not stop the render: the signed-in area meets the same error there.
const ready = saved
  ? loadSignedInArea(saved.user.role, window.location.pathname).catch(() => undefined)
  : Promise.resolve();
loadSession();

void ready.then(() => {
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
});
