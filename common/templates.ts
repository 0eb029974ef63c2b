// WhatsApp message templates as Sebar shows them: the shape read from Meta's components (header,
// body, footer, buttons, and the values a blast fills with their examples). The text a recipient
// reads and Meta's rules for a parameter's value are in template-text.ts (no zod: the blast form
// uses them).
import {
  parameterKey,
  placeholders,
  urlStart,
  type ParameterPart,
  type TemplateButtonText,
  type TemplateParameterText,
} from './template-text.ts';
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

/**
 * A value the blast fills: a placeholder of the body (`1`, `2` … positional, or `nama` named), of
 * a text header, or the end of a URL button's address, with Meta's example value. `name` is its
 * key in a blast's `parameters`: `1` or `nama` in the body, `header.1`, `button.0` (by the
 * button's place among the template's buttons).
 */
export const TemplateParameterSchema = z.object({
  name: z.string(),
  part: z.enum(['header', 'body', 'button']),
  placeholder: z.string(),
  example: z.string().nullable(),
});
export type TemplateParameter = z.infer<typeof TemplateParameterSchema>;

/** A button as the recipient sees it: QUICK_REPLY, URL (with its address), PHONE_NUMBER … */
export const TemplateButtonSchema = z.object({
  type: z.string(),
  text: z.string(),
  url: z.string().nullable(),
});

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
  buttons: z.array(TemplateButtonSchema),
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
  /** Header and body: `{header_text, body_text, …_named_params}`; a button: its URLs. */
  example?: unknown;
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
 * The example Meta keeps for a header's or body's placeholder `name`: the `<part>_text_named_params`
 * entry of that name for a named one; for positional `{{n}}`, `header_text[n - 1]` or
 * `body_text[0][n - 1]`; null when none was given.
 */
function exampleOf(
  component: Component | undefined,
  part: 'header' | 'body',
  name: string,
): string | null {
  const example = (component?.example ?? {}) as Record<string, unknown>;
  const named = example[`${part}_text_named_params`];
  if (Array.isArray(named)) {
    const entry = named.find((e) => (e as { param_name?: unknown })?.param_name === name) as
      { example?: unknown } | undefined;
    return asText(entry?.example) ?? null;
  }
  const texts = example[`${part}_text`];
  const values: unknown = part === 'body' && Array.isArray(texts) ? texts[0] : texts;
  const index = Number(name) - 1;
  if (!Array.isArray(values) || !Number.isInteger(index) || index < 0) return null;
  return asText(values[index]) ?? null;
}

/** A URL button's example end: Meta keeps the whole example address, which starts as the URL. */
function urlExample(button: Component): string | null {
  const url = asText(button.url) ?? '';
  const example = Array.isArray(button.example) ? asText(button.example[0]) : undefined;
  const start = urlStart(url);
  return example?.startsWith(start) ? example.slice(start.length) || null : null;
}

function parametersOf(
  component: Component | undefined,
  part: 'header' | 'body',
): TemplateParameterText[] {
  return placeholders(asText(component?.text) ?? '').map((placeholder) => ({
    name: parameterKey(part, placeholder),
    part,
    placeholder,
    example: exampleOf(component, part, placeholder),
  }));
}

function buttonsOf(components: unknown): Component[] {
  const buttons = componentOf(components, 'BUTTONS')?.buttons;
  return Array.isArray(buttons)
    ? buttons.map((b: unknown) => (typeof b === 'object' && b !== null ? (b as Component) : {}))
    : [];
}

/** The buttons' values: the end of each URL button's address that has a placeholder. */
function buttonParameters(buttons: Component[]): TemplateParameterText[] {
  return buttons.flatMap((button, index) => {
    const [placeholder] = placeholders(asText(button.url) ?? '');
    if (String(button.type).toUpperCase() !== 'URL' || placeholder === undefined) return [];
    const part: ParameterPart = 'button';
    return [{ name: parameterKey(part, index), part, placeholder, example: urlExample(button) }];
  });
}

/** The template as clients read it, from Meta's components. */
export function templateView(raw: RawTemplate): ClientTemplate {
  const header = componentOf(raw.components, 'HEADER');
  const body = componentOf(raw.components, 'BODY');
  const headerText = asText(header?.text);
  const format = asText(header?.format)?.toUpperCase() ?? 'TEXT';
  const buttons = buttonsOf(raw.components);
  return {
    id: raw.id,
    name: raw.name,
    language: raw.language,
    status: raw.status,
    category: raw.category,
    header: header ? { format, ...(headerText === undefined ? {} : { text: headerText }) } : null,
    body: asText(body?.text) ?? '',
    footer: asText(componentOf(raw.components, 'FOOTER')?.text) ?? null,
    buttons: buttons.map((button): TemplateButtonText => ({
      type: String(button.type).toUpperCase(),
      text: asText(button.text) ?? '',
      url: asText(button.url) ?? null,
    })),
    parameters: [
      ...(format === 'TEXT' ? parametersOf(header, 'header') : []),
      ...parametersOf(body, 'body'),
      ...buttonParameters(buttons),
    ],
  };
}

/** Header kinds in Indonesian, for the reason a template cannot be sent. */
const HEADER_KINDS: Record<string, string> = {
  VIDEO: 'video',
  DOCUMENT: 'dokumen',
  LOCATION: 'lokasi',
};

/** Buttons Sebar sends: fixed ones as the template has them, a URL one with its address's end. */
const SENDABLE_BUTTONS = new Set(['QUICK_REPLY', 'PHONE_NUMBER', 'VOICE_CALL', 'URL']);

/**
 * The part of a template Sebar cannot send yet, named in Indonesian ('header video'), or null
 * when it can send the whole template. A blast fills the placeholders of a text header, of the
 * body and of URL buttons, and an image header; Meta refuses every send of a template that needs
 * more (a header of another kind, a coupon code, a one-time password, a catalogue, a flow, a
 * carousel), and every number would fail.
 */
export function unsupportedPart(components: unknown): string | null {
  const parts: Component[] = Array.isArray(components) ? (components as Component[]) : [];
  for (const part of parts) {
    const type = String(part?.type).toUpperCase();
    if (type === 'HEADER') {
      const format = asText(part.format)?.toUpperCase() ?? 'TEXT';
      if (format !== 'TEXT' && format !== 'IMAGE')
        return `header ${HEADER_KINDS[format] ?? format.toLowerCase()}`;
    } else if (type === 'BUTTONS') {
      const kind = buttonsOf([part])
        .map((button) => String(button.type).toUpperCase())
        .find((k) => !SENDABLE_BUTTONS.has(k));
      if (kind !== undefined) return `tombol ${kind}`;
    } else if (type !== 'BODY' && type !== 'FOOTER') {
      return `komponen ${type}`;
    }
  }
  return null;
}
