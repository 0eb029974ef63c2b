// The text of a WhatsApp template as a recipient reads it, and Meta's rules for a parameter's
// value with the Indonesian messages: pure functions without zod, shared by the server and the
// client's blast form (whose code does not download zod).

/** The parts of a template its text is made of (a ClientTemplate has them). */
export interface TemplateText {
  header: { format: string; text?: string | undefined } | null;
  body: string;
  footer: string | null;
  parameters: { name: string; example: string | null }[];
}

/** Why a blast's template is refused (server) or not yet sendable (form), in Indonesian. */
export const TEMPLATE_MESSAGES = {
  manualOnly: 'Template hanya dapat dipakai saat blast dikirim melalui WhatsApp Cloud API',
  choose: 'Pilih template pesan',
  unknown: 'Template tidak ditemukan atau tidak lagi diaktifkan admin',
  /** An offered template Meta has since paused, disabled or taken back for review. */
  notApproved: (name: string, status: string) =>
    `Template ${name} tidak dapat dipakai saat ini (status di Meta: ${status})`,
  needsImage: 'Template ini membutuhkan gambar header. Upload gambar terlebih dahulu.',
  noImage: 'Template ini tidak memakai gambar',
  imageType: 'Gambar header template harus berupa PNG atau JPG',
};

/**
 * The image types Meta sends in a template's header (Cloud API, supported media types: JPEG and
 * PNG). A GIF, which a free-message blast may carry, is refused there.
 */
export const HEADER_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg'];

/**
 * The longest text parameter Meta accepts in a body: 1024 characters when the template has other
 * components too, 32768 when the body is its only one (Cloud API reference, template parameter
 * object, `text`). 1024 is the limit that always holds.
 */
export const MAX_PARAMETER_LENGTH = 1024;
export const MAX_BODY_ONLY_PARAMETER_LENGTH = 32768;

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** The distinct placeholders of a text, in order of first appearance: `1`, `2` or `nama`. */
export function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1] ?? ''))];
}

/** How long a body parameter of this template may be (see MAX_PARAMETER_LENGTH). */
export function parameterLimit(template: Pick<TemplateText, 'header' | 'footer'>): number {
  return template.header || template.footer !== null
    ? MAX_PARAMETER_LENGTH
    : MAX_BODY_ONLY_PARAMETER_LENGTH;
}

/** The body the recipient reads: each placeholder replaced by its value; an unfilled one stays. */
export function renderTemplate(body: string, values: Record<string, string>): string {
  return body.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(values, name) ? (values[name] ?? whole) : whole,
  );
}

/**
 * What Meta would refuse in a parameter's value, in Indonesian, or null when it is fine: empty,
 * longer than `limit` characters, a new line or a tab, more than four spaces in a row.
 */
export function templateParameterProblem(
  value: string,
  limit: number = MAX_PARAMETER_LENGTH,
): string | null {
  if (value.trim() === '') return 'Parameter tidak boleh kosong';
  if ([...value].length > limit) return `Parameter maksimal ${limit} karakter`;
  if (/[\r\n\t]/.test(value)) return 'Parameter tidak boleh berisi baris baru atau tab';
  if (/ {5,}/.test(value)) return 'Parameter tidak boleh berisi lebih dari 4 spasi berturut-turut';
  return null;
}

/** The values a blast gives its template: by placeholder name, or a list for `{{1}}`, `{{2}}` … */
export type ParameterInput = Record<string, string> | string[] | undefined;

/** The parameters by placeholder name: a list gives `{{1}}`, `{{2}}` … in its order. */
export function parametersByName(input: ParameterInput): Record<string, string> {
  if (Array.isArray(input)) return Object.fromEntries(input.map((v, i) => [String(i + 1), v]));
  return { ...input };
}

/**
 * What is wrong with the values for `template`, in Indonesian, or null: a placeholder the template
 * does not have, or a value Meta would refuse (each named by its placeholder).
 */
export function templateValuesProblem(
  template: Pick<TemplateText, 'header' | 'footer' | 'parameters'>,
  values: Record<string, string>,
): string | null {
  const names = template.parameters.map((p) => p.name);
  const unknown = Object.keys(values).find((name) => !names.includes(name));
  if (unknown !== undefined) return `Parameter {{${unknown}}} tidak ada di template ini`;
  for (const name of names) {
    const problem = templateParameterProblem(values[name] ?? '', parameterLimit(template));
    if (problem) return `Parameter {{${name}}}: ${problem}`;
  }
  return null;
}

/** The whole text the recipient reads: a text header, the filled body and the footer. */
export function recipientText(
  template: Pick<TemplateText, 'header' | 'body' | 'footer'>,
  values: Record<string, string>,
): string {
  const header = template.header?.format === 'TEXT' ? template.header.text : undefined;
  return [header, renderTemplate(template.body, values), template.footer ?? undefined]
    .filter((part): part is string => Boolean(part))
    .join('\n\n');
}
