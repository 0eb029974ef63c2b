// Checks a template send against the template it names, the way Meta does before accepting it:
// the template exists and is approved, the parameters match its placeholders in number and names,
// the texts have no line breaks or long runs of spaces, a media header is given.
import { graphError, type GraphError } from './errors.ts';
import type { SendComponent, SendMessageRequest, SendParameter } from './protocol.ts';
import { placeholders, type MessageTemplate, type TemplateComponent } from './templates.ts';

/** What a send needs from its template once checked: the template, or the error to answer. */
export type TemplateCheck =
  { ok: true; template: MessageTemplate } | { ok: false; error: GraphError };

/** The first problem of a send against the template set, or the template it uses. */
export function checkTemplateSend(
  request: SendMessageRequest,
  templates: readonly MessageTemplate[],
): TemplateCheck {
  const { name, language } = request.template;
  const template = templates.find((t) => t.name === name && t.language === language.code);
  // Meta names a paused or disabled template's state; any other unapproved one does not exist.
  if (template?.status === 'PAUSED') {
    return { ok: false, error: graphError(132015, `template name (${name}) is paused`) };
  }
  if (template?.status === 'DISABLED') {
    return { ok: false, error: graphError(132016, `template name (${name}) is disabled`) };
  }
  if (!template || template.status !== 'APPROVED') {
    const details = `template name (${name}) does not exist in ${language.code}`;
    return { ok: false, error: graphError(132001, details) };
  }
  const sent = request.template.components ?? [];
  const error =
    headerError(template, sent) ??
    placeholderError(template, sent, 'HEADER') ??
    placeholderError(template, sent, 'BODY') ??
    buttonError(template, sent) ??
    textFormatError(sent);
  return error ? { ok: false, error } : { ok: true, template };
}

function part(template: MessageTemplate, type: TemplateComponent['type']) {
  return template.components.find((c) => c.type === type);
}

function sentPart(sent: SendComponent[], type: SendComponent['type']) {
  return sent.find((c) => c.type === type);
}

/** A media header (IMAGE, VIDEO, DOCUMENT) needs its media in the send, by id or by link. */
function headerError(template: MessageTemplate, sent: SendComponent[]): GraphError | undefined {
  const format = part(template, 'HEADER')?.format;
  if (!format || format === 'TEXT') return undefined;
  const expected = format.toLowerCase();
  const given = sentPart(sent, 'header')?.parameters?.[0];
  if (given?.type === expected) return undefined;
  const received = given ? given.type.toUpperCase() : 'UNKNOWN';
  return graphError(132012, `header: Format mismatch, expected ${format}, received ${received}`);
}

/** The text parameters given for a header or body must match its placeholders. */
function placeholderError(
  template: MessageTemplate,
  sent: SendComponent[],
  type: 'HEADER' | 'BODY',
): GraphError | undefined {
  const component = part(template, type);
  if (type === 'HEADER' && component?.format !== 'TEXT') return undefined;
  const expected = placeholders(component?.text);
  const label = type.toLowerCase() as 'header' | 'body';
  const given = sentPart(sent, label)?.parameters ?? [];
  if (given.length !== expected.length) {
    const details = `${label}: number of localizable_params (${given.length}) does not match the expected number of params (${expected.length})`;
    return graphError(132000, details);
  }
  if (template.parameter_format !== 'NAMED') return undefined;
  const names = given.map((p) => ('parameter_name' in p ? p.parameter_name : undefined));
  const missing = expected.find((name) => !names.includes(name));
  if (missing === undefined) return undefined;
  return graphError(132000, `${label}: named parameter '${missing}' is missing`);
}

/**
 * Button parameters must point at a button of the template of the same kind, and a URL button
 * whose address ends in a placeholder needs its one text value.
 */
function buttonError(template: MessageTemplate, sent: SendComponent[]): GraphError | undefined {
  const buttons = part(template, 'BUTTONS')?.buttons ?? [];
  const given = sent.filter((c) => c.type === 'button');
  for (const component of given) {
    const index = Number(component.index);
    const button = Number.isInteger(index) ? buttons[index] : undefined;
    const kind = component.sub_type?.toUpperCase();
    if (!button || (kind !== undefined && kind !== button.type)) {
      return graphError(
        131009,
        `button: no ${kind ?? 'button'} at index ${String(component.index)}`,
      );
    }
  }
  const missing = buttons.findIndex(
    (button, index) =>
      button.type === 'URL' &&
      placeholders(button.url).length > 0 &&
      !given.some((c) => Number(c.index) === index && c.parameters?.length === 1),
  );
  if (missing === -1) return undefined;
  return graphError(131008, `buttons: Button at index ${missing} of type Url requires a parameter`);
}

function textOf(parameter: SendParameter): string | undefined {
  return parameter.type === 'text' ? parameter.text : undefined;
}

/** A text parameter is not blank and holds no new line, no tab, no run of more than four spaces. */
function textFormatError(sent: SendComponent[]): GraphError | undefined {
  const texts = sent.flatMap((c) => (c.parameters ?? []).map(textOf));
  if (texts.some((text) => text !== undefined && text.trim() === '')) {
    return graphError(131008, 'Parameter of type text is missing text value');
  }
  const bad = texts.some((text) => text !== undefined && /[\n\t]| {5,}/.test(text));
  return bad ? graphError(132018) : undefined;
}
