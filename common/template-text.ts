// The text of a WhatsApp template as a recipient reads it, and Meta's rules for a parameter's
// value with the Indonesian messages: pure functions without zod, shared by the server and the
// client's blast form (whose code does not download zod).

/**
 * Where a template's placeholder is: the header's text, the body, or the end of a URL button's
 * address (Meta's dynamic URL suffix).
 */
export type ParameterPart = 'header' | 'body' | 'button';

/**
 * A value a blast gives its template. `name` is its key in a blast's `parameters`: the
 * placeholder's own name for the body (`1`, `nama`), `header.<placeholder>` for the header and
 * `button.<index>` for a URL button (its place among the template's buttons).
 */
export interface TemplateParameterText {
  name: string;
  part: ParameterPart;
  /** The placeholder as the template writes it between braces. */
  placeholder: string;
  example: string | null;
}

/** A template's button as a recipient sees it; `url` (a URL button's) may end in a placeholder. */
export interface TemplateButtonText {
  type: string;
  text: string;
  url: string | null;
}

/** The parts of a template its text is made of (a ClientTemplate has them). */
export interface TemplateText {
  header: { format: string; text?: string | undefined } | null;
  body: string;
  footer: string | null;
  buttons: TemplateButtonText[];
  parameters: TemplateParameterText[];
}

/** Whether the template's header is an image, which the blast must then carry. */
export const needsImage = (template: Pick<TemplateText, 'header'>) =>
  template.header?.format === 'IMAGE';

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
 * components too, 32768 when the body is its only one; in a header, 60 (Cloud API reference,
 * template parameter object, `text`). 1024 is the body's limit that always holds. A URL button's
 * whole address is at most 2000 characters.
 */
export const MAX_PARAMETER_LENGTH = 1024;
export const MAX_BODY_ONLY_PARAMETER_LENGTH = 32768;
export const MAX_HEADER_PARAMETER_LENGTH = 60;
export const MAX_URL_SUFFIX_LENGTH = 2000;

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** The distinct placeholders of a text, in order of first appearance: `1`, `2` or `nama`. */
export function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1] ?? ''))];
}

/** A parameter's key in a blast's `parameters` (see TemplateParameterText). */
export function parameterKey(part: ParameterPart, placeholder: string | number): string {
  return part === 'body' ? String(placeholder) : `${part}.${placeholder}`;
}

/** How long a parameter of this template in `part` may be (see MAX_PARAMETER_LENGTH). */
export function parameterLimit(
  template: Pick<TemplateText, 'header' | 'footer' | 'buttons'>,
  part: ParameterPart = 'body',
): number {
  if (part === 'header') return MAX_HEADER_PARAMETER_LENGTH;
  if (part === 'button') return MAX_URL_SUFFIX_LENGTH;
  return template.header || template.footer !== null || template.buttons.length > 0
    ? MAX_PARAMETER_LENGTH
    : MAX_BODY_ONLY_PARAMETER_LENGTH;
}

/**
 * The values of one part of a template: the header's and the body's by placeholder (the header's
 * `{{1}}` is `header.1` in a blast's parameters), the URL buttons' ends by the button's index
 * (`button.0`).
 */
export function partValues(
  values: Record<string, string>,
  part: ParameterPart,
): Record<string, string> {
  const entries = Object.entries(values);
  if (part === 'body') return Object.fromEntries(entries.filter(([key]) => !key.includes('.')));
  const prefix = `${part}.`;
  return Object.fromEntries(
    entries
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, value]) => [key.slice(prefix.length), value]),
  );
}

/** The body the recipient reads: each placeholder replaced by its value; an unfilled one stays. */
export function renderTemplate(body: string, values: Record<string, string>): string {
  return body.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(values, name) ? (values[name] ?? whole) : whole,
  );
}

/**
 * What Meta would refuse in a parameter's value, in Indonesian, or null when it is fine: empty,
 * longer than `limit` characters, a new line or a tab, more than four spaces in a row; the end of
 * a URL may hold no space at all.
 */
export function templateParameterProblem(
  value: string,
  limit: number = MAX_PARAMETER_LENGTH,
  part: ParameterPart = 'body',
): string | null {
  if (value.trim() === '') return 'Parameter tidak boleh kosong';
  if ([...value].length > limit) return `Parameter maksimal ${limit} karakter`;
  if (part === 'button' && /\s/.test(value)) return 'Akhiran URL tidak boleh berisi spasi';
  if (/[\r\n\t]/.test(value)) return 'Parameter tidak boleh berisi baris baru atau tab';
  if (/ {5,}/.test(value)) return 'Parameter tidak boleh berisi lebih dari 4 spasi berturut-turut';
  return null;
}

/** The button whose address a `button.<index>` value ends. */
export function buttonOf(
  template: Pick<TemplateText, 'buttons'>,
  name: string,
): TemplateButtonText | undefined {
  return template.buttons[Number(name.slice('button.'.length))];
}

/** How a parameter is named to the client: `{{1}}`, `header {{1}}`, `akhiran URL tombol Lacak`. */
export function parameterLabel(
  template: Pick<TemplateText, 'buttons'>,
  { part, placeholder, name }: Pick<TemplateParameterText, 'part' | 'placeholder' | 'name'>,
): string {
  if (part === 'header') return `header {{${placeholder}}}`;
  if (part === 'body') return `{{${placeholder}}}`;
  return `akhiran URL tombol ${buttonOf(template, name)?.text ?? name}`;
}

/** What Meta would refuse in this parameter's value (see templateParameterProblem), or null. */
export function parameterProblem(
  template: Pick<TemplateText, 'header' | 'footer' | 'buttons'>,
  parameter: Pick<TemplateParameterText, 'part'>,
  value: string,
): string | null {
  return templateParameterProblem(value, parameterLimit(template, parameter.part), parameter.part);
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
  template: Pick<TemplateText, 'header' | 'footer' | 'buttons' | 'parameters'>,
  values: Record<string, string>,
): string | null {
  const names = template.parameters.map((p) => p.name);
  const unknown = Object.keys(values).find((name) => !names.includes(name));
  if (unknown !== undefined) return `Parameter {{${unknown}}} tidak ada di template ini`;
  for (const parameter of template.parameters) {
    const problem = parameterProblem(template, parameter, values[parameter.name] ?? '');
    if (problem) return `Parameter ${parameterLabel(template, parameter)}: ${problem}`;
  }
  return null;
}

/** What the recipient reads, part by part: the text header and the body filled, the footer. */
export function recipientParts(
  template: Pick<TemplateText, 'header' | 'body' | 'footer'>,
  values: Record<string, string>,
): { header: string | null; body: string; footer: string | null } {
  const header = template.header?.format === 'TEXT' ? template.header.text : undefined;
  return {
    header: header ? renderTemplate(header, partValues(values, 'header')) : null,
    body: renderTemplate(template.body, partValues(values, 'body')),
    footer: template.footer || null,
  };
}

/** The whole text the recipient reads, its parts a blank line apart. */
export function recipientText(
  template: Pick<TemplateText, 'header' | 'body' | 'footer'>,
  values: Record<string, string>,
): string {
  const { header, body, footer } = recipientParts(template, values);
  return [header, body, footer].filter((part): part is string => Boolean(part)).join('\n\n');
}

/** A URL button's fixed start: its address up to the placeholder the blast fills. */
export const urlStart = (url: string): string => url.split('{{')[0] ?? '';

/** A URL button's address with its end filled in (a button without a placeholder as it is). */
export function buttonUrl(url: string, index: number, values: Record<string, string>): string {
  const value = values[parameterKey('button', index)];
  return value === undefined || value === '' ? url : url.replace(PLACEHOLDER, () => value);
}
