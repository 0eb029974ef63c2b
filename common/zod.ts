// The one zod instance both sides use, speaking Indonesian for the messages we do not write.
import { z } from 'zod';
// Only the Indonesian locale: `z.locales` would bundle every language into the browser app.
import id from 'zod/v4/locales/id.js';

z.config(id());
// In the browser, no `new Function` probe: the strict CSP would report it as a violation.
z.config({ jitless: typeof window !== 'undefined' });
// A missing (or null) field is named, instead of zod's "diharapkan string, diterima undefined".
z.config({
  customError: (issue) =>
    issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null)
      ? `${issue.path?.length ? issue.path.map(String).join('.') : 'Data'} harus diisi`
      : undefined,
});

export { z };
