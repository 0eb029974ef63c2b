// The one zod instance both sides use, speaking Indonesian for the messages we do not write.
import { z } from 'zod';
// Only the Indonesian locale: `z.locales` would bundle every language into the browser app.
import id from 'zod/v4/locales/id.js';

z.config(id());
// In the browser, no `new Function` probe: the strict CSP would report it as a violation.
z.config({ jitless: typeof window !== 'undefined' });
// Messages zod's Indonesian locale writes with English words in them ("diharapkan number",
// "Kunci tidak dikenali s:") or without the field ("Terlalu besar: diharapkan string memiliki
// <=200 karakter") say it in Indonesian, naming the field; the others are the locale's.
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
/** What a text's or a list's length counts. */
const UNITS: Record<string, string> = { string: 'karakter', array: 'item' };
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
        if (NUMERIC.has(issue.origin))
          return `${field} ${issue.inclusive ? 'minimal' : 'harus lebih dari'} ${issue.minimum}`;
        return UNITS[issue.origin] && `${field} minimal ${issue.minimum} ${UNITS[issue.origin]}`;
      case 'too_big':
        if (NUMERIC.has(issue.origin))
          return `${field} ${issue.inclusive ? 'maksimal' : 'harus kurang dari'} ${issue.maximum}`;
        return UNITS[issue.origin] && `${field} maksimal ${issue.maximum} ${UNITS[issue.origin]}`;
      default:
        return undefined;
    }
  },
});

export { z };
