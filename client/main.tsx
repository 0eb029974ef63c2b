// Browser entry: styles and the application root.
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { earlyData, loadSignedInArea } from './app/pages.ts';
import { startEarly } from './lib/api-client.ts';
import { loadSession, readStoredSession } from './lib/session.ts';
import './styles.css';

// A saved session: the signed-in area's code and the first screen's data start downloading now
// (index.html's start-up script, scripts/start-preload.ts, already asked for the code: these
// imports take those downloads), and the first render waits for that code. Rendered before it came, the app would show a spinner
// and then hold the finished screen back: React shows content that replaces a Suspense fallback
// no sooner than 300 ms after the fallback.
const saved = readStoredSession();
// A failed download does not stop the render: the signed-in area meets the same error there.
const ready = saved
  ? loadSignedInArea(saved.user.role, window.location.pathname).catch(() => undefined)
  : Promise.resolve();
if (saved) {
  for (const path of earlyData(saved.user.role, window.location.pathname)) {
    startEarly(path, saved.token);
  }
}
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
