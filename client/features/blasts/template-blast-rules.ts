// The blast form's checks in Cloud API mode, without React: each parameter checked live by Meta's
// rules (the server's own functions), and on submit the server's order: the template, its
// parameters, the header image, then the numbers as in manual mode.
import type { FieldErrors, ResolverResult } from 'react-hook-form';
import {
  needsImage,
  parameterLabel,
  parameterProblem,
  TEMPLATE_MESSAGES,
  type TemplateText,
} from '#common/template-text.ts';
import type { ClientTemplate } from '#common/templates.ts';
import { analyzeNumbers, splitNumbers } from '#common/phone.ts';
import { numbersProblem, type BlastRule } from './blast-form-rules.ts';

/** What the form holds: the numbers as typed, the chosen template, its values and the image. */
export interface TemplateBlastValues {
  numbers: string;
  template_id: string;
  /** The values by placeholder name, as typed. */
  parameters: Record<string, string>;
  image: File | null;
}

/** What a checked form sends. */
export interface TemplateBlastToSend {
  template_id: string;
  parameters: Record<string, string>;
  numbers: string[];
  image: File | null;
}

export interface TemplateBlastContext {
  points: number;
  templates: readonly ClientTemplate[];
}

export type TemplateBlastField = 'template_id' | 'parameters' | 'image' | 'numbers';

export interface TemplateBlastProblem {
  field: TemplateBlastField;
  rule: BlastRule;
  text: string;
}

/** Each value of the template with what Meta would refuse in it (null: fine), by its key. */
export function parameterProblems(
  template: Pick<TemplateText, 'header' | 'footer' | 'buttons' | 'parameters'>,
  values: Record<string, string>,
): Record<string, string | null> {
  return Object.fromEntries(
    template.parameters.map((parameter) => [
      parameter.name,
      parameterProblem(template, parameter, values[parameter.name] ?? ''),
    ]),
  );
}

/** The template's values only (a value left from another template is not sent). */
export function valuesFor(
  template: Pick<TemplateText, 'parameters'>,
  values: Record<string, string>,
): Record<string, string> {
  return Object.fromEntries(template.parameters.map(({ name }) => [name, values[name] ?? '']));
}

/**
 * The values the preview fills in: the ones typed so far. An empty one leaves its `{{name}}` in
 * the text, so the client sees what is still to fill.
 */
export function typedValues(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));
}

/** The first check that fails, in the server's order, or null when the blast may be sent. */
export function templateBlastProblem(
  values: TemplateBlastValues,
  { points, templates }: TemplateBlastContext,
): TemplateBlastProblem | null {
  const template = templates.find((t) => t.id === values.template_id);
  if (!template) return { field: 'template_id', rule: 'required', text: TEMPLATE_MESSAGES.choose };
  const problems = parameterProblems(template, values.parameters);
  const wrong = template.parameters.find((parameter) => problems[parameter.name] !== null);
  if (wrong) {
    const text = `Parameter ${parameterLabel(template, wrong)}: ${problems[wrong.name]}`;
    return { field: 'parameters', rule: 'pattern', text };
  }
  if (needsImage(template) && !values.image) {
    return { field: 'image', rule: 'required', text: TEMPLATE_MESSAGES.needsImage };
  }
  return numbersProblem(analyzeNumbers(splitNumbers(values.numbers)), points);
}

/** The form's resolver: the first failed check as its field's error, else what to send. */
export function templateBlastResolver(
  values: TemplateBlastValues,
  context?: TemplateBlastContext,
): ResolverResult<TemplateBlastValues, TemplateBlastToSend> {
  const checked = context ?? { points: 0, templates: [] };
  const problem = templateBlastProblem(values, checked);
  if (problem) {
    const errors: FieldErrors<TemplateBlastValues> = {
      [problem.field]: { type: problem.rule, message: problem.text },
    };
    return { values: {}, errors };
  }
  const template = checked.templates.find((t) => t.id === values.template_id)!;
  return {
    values: {
      template_id: template.id,
      parameters: valuesFor(template, values.parameters),
      numbers: analyzeNumbers(splitNumbers(values.numbers)).unique,
      image: needsImage(template) ? values.image : null,
    },
    errors: {},
  };
}
