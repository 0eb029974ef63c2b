// Form Blast in Cloud API mode: the template picker, one field per placeholder checked live by
// Meta's rules, and the preview of the text the recipient will read.
import { ImageIcon } from 'lucide-react';
import { useState, type Ref } from 'react';
import {
  buttonOf,
  buttonUrl,
  needsImage,
  parameterLabel,
  recipientParts,
  urlStart,
} from '#common/template-text.ts';
import type { ClientTemplate } from '#common/templates.ts';
import { Textarea } from '#client/components/ui/input.tsx';
import { describedBy, Field } from '#client/components/ui/label.tsx';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '#client/components/ui/select.tsx';
import { useDataUrl } from '#client/components/ui/use-data-url.ts';
import { parameterProblems, typedValues } from './template-blast-rules.ts';

export const TEMPLATE_ID = 'blast-template';
export const parameterId = (name: string) => `blast-parameter-${name.replace('.', '-')}`;

export interface TemplatePickerProps {
  templates: readonly ClientTemplate[];
  value: string;
  onChange: (id: string) => void;
  triggerRef?: Ref<HTMLButtonElement>;
  error?: string;
  disabled: boolean;
}

export function TemplatePicker(props: TemplatePickerProps) {
  const { templates, value, onChange, triggerRef, error, disabled } = props;
  return (
    <Field id={TEMPLATE_ID} label="Template Pesan" error={error} required>
      <Select value={value} onValueChange={onChange} disabled={disabled}>
        <SelectTrigger
          id={TEMPLATE_ID}
          ref={triggerRef}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(TEMPLATE_ID, error)}
          aria-required
        >
          <SelectValue placeholder="Pilih template pesan" />
        </SelectTrigger>
        <SelectContent>
          {templates.map((template) => (
            <SelectItem key={template.id} value={template.id}>
              {template.name} ({template.language})
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </Field>
  );
}

export interface ParameterFieldsProps {
  template: ClientTemplate;
  values: Record<string, string>;
  onValueChange: (name: string, value: string) => void;
  disabled: boolean;
}

/**
 * One field per value, named by where it goes (`{{1}}`, `Header {{1}}`, `Akhiran URL tombol …`),
 * with Meta's example as its placeholder; a URL button's field shows the address it ends. A value's
 * problem shows under it once something is typed there or the field is left (an untouched empty
 * field says nothing yet). A text area, so a pasted line break is seen and explained, not dropped.
 */
export function ParameterFields({
  template,
  values,
  onValueChange,
  disabled,
}: ParameterFieldsProps) {
  const [left, setLeft] = useState<ReadonlySet<string>>(new Set());
  const problems = parameterProblems(template, values);
  if (template.parameters.length === 0) {
    return <p className="text-sm text-muted-foreground">Template ini tidak memiliki parameter.</p>;
  }
  return (
    <fieldset className="grid gap-4 sm:grid-cols-2">
      <legend className="mb-2 text-sm font-medium">Parameter Template</legend>
      {template.parameters.map((parameter) => {
        const { name, example } = parameter;
        const id = parameterId(name);
        const value = values[name] ?? '';
        const shown = value !== '' || left.has(name) ? (problems[name] ?? undefined) : undefined;
        const label = parameterLabel(template, parameter);
        const url = parameter.part === 'button' ? buttonOf(template, name)?.url : null;
        const hint = url ? `Ditambahkan di akhir ${urlStart(url)}` : undefined;
        return (
          <Field
            key={name}
            id={id}
            label={label.charAt(0).toUpperCase() + label.slice(1)}
            error={shown}
            hint={hint}
            required
            className="content-start"
          >
            <Textarea
              id={id}
              rows={1}
              value={value}
              onChange={(event) => onValueChange(name, event.target.value)}
              onBlur={() => setLeft((before) => new Set(before).add(name))}
              placeholder={example ?? ''}
              className="field-sizing-content min-h-10 resize-none"
              required
              aria-invalid={shown ? true : undefined}
              aria-describedby={describedBy(id, shown, hint)}
              disabled={disabled}
            />
          </Field>
        );
      })}
    </fieldset>
  );
}

/**
 * What the recipient will read, filled in as the client types (a placeholder not yet filled
 * stays), with the template's buttons under it and where a URL button leads.
 */
export function TemplatePreview(props: {
  template: ClientTemplate;
  values: Record<string, string>;
  image: File | null;
}) {
  const { template, values, image } = props;
  const { header, body, footer } = recipientParts(template, typedValues(values));
  return (
    <section aria-labelledby="blast-preview-title" className="grid gap-2">
      <h3 id="blast-preview-title" className="text-sm font-medium">
        Pratinjau Pesan
      </h3>
      <div className="rounded-lg bg-muted p-3 sm:p-4">
        <div className="grid max-w-md gap-2 rounded-lg rounded-tl-none bg-card p-2 shadow-sm">
          {needsImage(template) && <HeaderImage image={image} />}
          {/* As WhatsApp shows it: the header bold, the footer small and grey. */}
          <p
            className="whitespace-pre-wrap break-words px-1 text-sm leading-relaxed"
            data-template-preview=""
          >
            {header && <strong className="font-semibold">{header}</strong>}
            {header && '\n\n'}
            {body}
            {footer && '\n\n'}
            {footer && <span className="text-xs text-muted-foreground">{footer}</span>}
          </p>
        </div>
        {template.buttons.length > 0 && (
          <ul className="mt-1 grid max-w-md gap-1" aria-label="Tombol pesan">
            {template.buttons.map((button, index) => (
              <li
                key={index}
                className="rounded-lg bg-card px-3 py-2 text-center text-sm font-medium text-primary shadow-sm"
              >
                {button.text}
                {button.url && (
                  <span className="block wrap-anywhere text-xs font-normal text-muted-foreground">
                    {buttonUrl(button.url, index, typedValues(values))}
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function HeaderImage({ image }: { image: File | null }) {
  const url = useDataUrl(image);
  if (url && url !== 'error') {
    return (
      <img src={url} alt="Gambar header" className="max-h-48 w-full rounded-md object-cover" />
    );
  }
  return (
    <div className="grid h-28 place-content-center justify-items-center gap-1 rounded-md bg-muted text-xs text-muted-foreground">
      <ImageIcon aria-hidden className="size-6" />
      {image ? 'Gambar header' : 'Gambar header belum dipilih'}
    </div>
  );
}
