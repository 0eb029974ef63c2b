// Browser entry (placeholder until the shells land).
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')!).render(<p>Sebar</p>);
