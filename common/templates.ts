// WhatsApp message templates as Sebar shows and fills them: the shape read from Meta's
// components (header, body, footer, the body's placeholders with their examples), the text a
// recipient reads, and Meta's rules for a parameter's value, with the Indonesian messages.
import { z } from './zod.ts';

/** The only status Meta sends with; any other template is never offered to clients. */
export const APPROVED = 'APPROVED';

/** Meta's template statuses as the screens name them; another status shows as Meta spells it. */
export const TEMPLATE_STATUS_LABELS: Record<string, string> = {
  APPROVED: 'Disetujui',
  PENDING: 'Menunggu',
  REJECTED: 'Ditolak',
  PAUSED: 'Dijeda',
  DISABLED: 'Dinonaktifkan',
};
export const templateStatusLabel = (status: string) => TEMPLATE_STATUS_LABELS[status] ?? status;

/**
 * The longest text parameter Meta accepts in a body: 1024 characters when the template has other
 * components too, 32768 when the body is its only one (Cloud API reference, template parameter
 * object, `text`). 1024 is the limit that always holds.
 */
export const MAX_PARAMETER_LENGTH = 1024;
export const MAX_BODY_ONLY_PARAMETER_LENGTH = 32768;

export const TemplateHeaderSchema = z.object({
  /** TEXT, IMAGE, VIDEO, DOCUMENT or LOCATION, as Meta spells it. */
  format: z.string(),
  text: z.string().optional(),
});
export type TemplateHeader = z.infer<typeof TemplateHeaderSchema>;

/** A body placeholder: `1`, `2` … (positional) or `nama` (named), with Meta's example value. */
export const TemplateParameterSchema = z.object({
  name: z.string(),
  example: z.string().nullable(),
});
export type TemplateParameter = z.infer<typeof TemplateParameterSchema>;

/** A template as a client's blast form reads it. */
export const ClientTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  language: z.string(),
  status: z.string(),
  category: z.string(),
  header: TemplateHeaderSchema.nullable(),
  body: z.string(),
  footer: z.string().nullable(),
  parameters: z.array(TemplateParameterSchema),
});
export type ClientTemplate = z.infer<typeof ClientTemplateSchema>;

/** A template as the admin manages it: whether clients may send with it. */
export const TemplateSchema = ClientTemplateSchema.extend({ enabled: z.boolean() });
export type Template = z.infer<typeof TemplateSchema>;

export const TemplateListSchema = z.array(TemplateSchema);
export const ClientTemplateListSchema = z.array(ClientTemplateSchema);

export const TemplateEnableInputSchema = z.strictObject({ enabled: z.boolean() });
export type TemplateEnableInput = z.infer<typeof TemplateEnableInputSchema>;

/** A template's stored fields: Meta's components as it answered them (unchecked JSON). */
export interface RawTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: unknown;
}

/** One of Meta's components, as far as Sebar reads it. */
interface Component {
  type?: unknown;
  format?: unknown;
  text?: unknown;
  example?: {
    body_text?: unknown;
    body_text_named_params?: unknown;
  };
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** The distinct placeholders of a text, in order of first appearance: `1`, `2` or `nama`. */
export function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1] ?? ''))];
}

const asText = (value: unknown) => (typeof value === 'string' ? value : undefined);

function componentOf(components: unknown, type: string): Component | undefined {
  if (!Array.isArray(components)) return undefined;
  return components.find(
    (c): c is Component =>
      typeof c === 'object' && c !== null && String((c as Component).type).toUpperCase() === type,
  );
}

/**
 * The example Meta keeps for placeholder `name`: `body_text[0][n - 1]` for positional `{{n}}`,
 * the `body_text_named_params` entry of that name for a named one; null when none was given.
 */
function exampleOf(body: Component | undefined, name: string): string | null {
  const named = body?.example?.body_text_named_params;
  if (Array.isArray(named)) {
    const entry = named.find((e) => (e as { param_name?: unknown })?.param_name === name) as
      { example?: unknown } | undefined;
    return asText(entry?.example) ?? null;
  }
  const rows = body?.example?.body_text;
  const first: unknown = Array.isArray(rows) ? rows[0] : undefined;
  const index = Number(name) - 1;
  if (!Array.isArray(first) || !Number.isInteger(index) || index < 0) return null;
  return asText(first[index]) ?? null;
}

/** The template as clients read it, from Meta's components. */
export function templateView(raw: RawTemplate): ClientTemplate {
  const header = componentOf(raw.components, 'HEADER');
  const body = componentOf(raw.components, 'BODY');
  const bodyText = asText(body?.text) ?? '';
  const headerText = asText(header?.text);
  return {
    id: raw.id,
    name: raw.name,
    language: raw.language,
    status: raw.status,
    category: raw.category,
    header: header
      ? {
          format: asText(header.format)?.toUpperCase() ?? 'TEXT',
          ...(headerText === undefined ? {} : { text: headerText }),
        }
      : null,
    body: bodyText,
    footer: asText(componentOf(raw.components, 'FOOTER')?.text) ?? null,
    parameters: placeholders(bodyText).map((name) => ({ name, example: exampleOf(body, name) })),
  };
}

/** How long a body parameter of this template may be (see MAX_PARAMETER_LENGTH). */
export function parameterLimit(template: Pick<ClientTemplate, 'header' | 'footer'>): number {
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
  template: Pick<ClientTemplate, 'header' | 'footer' | 'parameters'>,
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
  template: Pick<ClientTemplate, 'header' | 'body' | 'footer'>,
  values: Record<string, string>,
): string {
  const header = template.header?.format === 'TEXT' ? template.header.text : undefined;
  return [header, renderTemplate(template.body, values), template.footer ?? undefined]
    .filter((part): part is string => Boolean(part))
    .join('\n\n');
}
