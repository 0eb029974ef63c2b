// Browser entry: styles, the saved session and the application root.
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { loadSignedIn } from './app/start.ts';
import { getSession, loadSession } from './lib/session.ts';
import './styles.css';

loadSession();
const session = getSession();
// With a saved session the first render waits for the signed-in area, the shell and the screen
// at the address (one wave of downloads): painted before, the spinner would make every task of
// the start-up count as blocking time. A download that fails does not stop the render: the
// route meets the same failure and shows the load error.
const ready =
  session && window.location.pathname !== '/login'
    ? loadSignedIn(session.user.role, window.location.pathname).catch(() => undefined)
    : Promise.resolve();

// In a transition, React renders the first screen in slices instead of one long task.
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
