// The one zod instance both sides use, speaking Indonesian for the messages we do not write.
import { z } from 'zod';
// Only the Indonesian locale: `z.locales` would bundle every language into the browser app.
import id from 'zod/v4/locales/id.js';

z.config(id());
// In the browser, no `new Function` probe: the strict CSP would report it as a violation.
z.config({ jitless: typeof window !== 'undefined' });
// Messages zod's Indonesian locale writes with English words in them ("diharapkan number",
// "Kunci tidak dikenali s:") say it in Indonesian, naming the field; the others are the locale's.
const TYPE_NAMES: Record<string, string> = {
  string: 'teks',
  number: 'angka',
  int: 'bilangan bulat',
  bigint: 'bilangan bulat',
  boolean: 'true atau false',
  object: 'objek',
  array: 'daftar',
  date: 'tanggal',
};
const NUMERIC = new Set(['number', 'int', 'bigint']);
z.config({
  customError: (issue) => {
    const field = issue.path?.length ? issue.path.map(String).join('.') : 'Data';
    switch (issue.code) {
      case 'invalid_type':
        // A missing (or null) field is named, instead of "diharapkan string, diterima undefined".
        if (issue.input === undefined || issue.input === null) return `${field} harus diisi`;
        return TYPE_NAMES[issue.expected]
          ? `${field} harus berupa ${TYPE_NAMES[issue.expected]}`
          : undefined;
      case 'unrecognized_keys':
        return `Kunci tidak dikenali: ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
      case 'too_small':
        return NUMERIC.has(issue.origin)
          ? `${field} ${issue.inclusive ? 'minimal' : 'harus lebih dari'} ${issue.minimum}`
          : undefined;
      case 'too_big':
        return NUMERIC.has(issue.origin)
          ? `${field} ${issue.inclusive ? 'maksimal' : 'harus kurang dari'} ${issue.maximum}`
          : undefined;
      default:
        return undefined;
    }
  },
});

export { z };
