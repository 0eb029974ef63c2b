// WhatsApp message templates as Sebar shows them: the shape read from Meta's components (header,
// body, footer, the body's placeholders with their examples). The text a recipient reads and
// Meta's rules for a parameter's value are in template-text.ts (no zod: the blast form uses them).
import { placeholders } from './template-text.ts';
import { z } from './zod.ts';

export * from './template-text.ts';

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

/**
 * A template as the admin manages it: whether clients may send with it, and the part of it Sebar
 * cannot send yet (`unsupported`, e.g. 'header video'; null when Sebar can send it).
 */
export const TemplateSchema = ClientTemplateSchema.extend({
  enabled: z.boolean(),
  unsupported: z.string().nullable(),
});
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
  buttons?: unknown;
  url?: unknown;
  example?: {
    body_text?: unknown;
    body_text_named_params?: unknown;
  };
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

/** Header kinds in Indonesian, for the reason a template cannot be sent. */
const HEADER_KINDS: Record<string, string> = {
  VIDEO: 'video',
  DOCUMENT: 'dokumen',
  LOCATION: 'lokasi',
};

/** Buttons Meta sends as the template has them (a URL one without a variable). */
const FIXED_BUTTONS = new Set(['QUICK_REPLY', 'PHONE_NUMBER', 'VOICE_CALL', 'URL']);

/**
 * The part of a template Sebar cannot send yet, named in Indonesian ('header video'), or null
 * when it can send the whole template. A blast fills the body's parameters and an image header
 * only; Meta refuses every send of a template that needs more (a header of another kind or with a
 * variable, a URL button with a variable, a coupon code, a one-time password, a catalogue, a flow,
 * a carousel), and every number would fail.
 */
export function unsupportedPart(components: unknown): string | null {
  const parts: Component[] = Array.isArray(components) ? (components as Component[]) : [];
  for (const part of parts) {
    const type = String(part?.type).toUpperCase();
    if (type === 'HEADER') {
      const format = asText(part.format)?.toUpperCase() ?? 'TEXT';
      if (format === 'TEXT' && placeholders(asText(part.text) ?? '').length > 0)
        return 'header teks dengan variabel';
      if (format !== 'TEXT' && format !== 'IMAGE')
        return `header ${HEADER_KINDS[format] ?? format.toLowerCase()}`;
    } else if (type === 'BUTTONS') {
      const buttons = Array.isArray(part.buttons) ? (part.buttons as Component[]) : [];
      for (const button of buttons) {
        const kind = String(button?.type).toUpperCase();
        if (!FIXED_BUTTONS.has(kind)) return `tombol ${kind}`;
        if (kind === 'URL' && placeholders(asText(button.url) ?? '').length > 0)
          return 'tombol URL dengan variabel';
      }
    } else if (type !== 'BODY' && type !== 'FOOTER') {
      return `komponen ${type}`;
    }
  }
  return null;
}
