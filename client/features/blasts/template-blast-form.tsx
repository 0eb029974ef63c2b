// Form Blast in Cloud API mode: the numbers as in manual mode, then an enabled template with its
// parameters (checked as they are typed; the button waits while one is wrong), the header image
// when the template has one, and the text the recipient will read. Checked in the server's order
// on submit, then sent like any blast.
import { Controller, useForm, useWatch, type FieldError, type FieldErrors } from 'react-hook-form';
import { useMemo, type FormEvent } from 'react';
import { analyzeNumbers, splitNumbers, withoutInvalidNumbers } from '#common/phone.ts';
import type { ClientTemplate } from '#common/templates.ts';
import { needsImage } from '#common/template-text.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { toast } from '#client/components/ui/toast.ts';
import { problemTitle } from './blast-form-rules.ts';
import { BlastImageField } from './blast-image-field.tsx';
import { BlastNumbersField } from './blast-numbers-field.tsx';
import { SendButton } from './blast-send-button.tsx';
import {
  parameterProblems,
  templateBlastResolver,
  type TemplateBlastContext,
  type TemplateBlastToSend,
  type TemplateBlastValues,
} from './template-blast-rules.ts';
import {
  ParameterFields,
  parameterId,
  TemplatePicker,
  TemplatePreview,
} from './template-fields.tsx';
import { readDraft, useFormDraft } from '#client/lib/form-draft.ts';

const EMPTY: TemplateBlastValues = { numbers: '', template_id: '', parameters: {}, image: null };
const BLOCKED_ID = 'blast-send-blocked';
const FIELDS = ['template_id', 'parameters', 'image', 'numbers'] as const;
const IMAGES_OFF_FOR_TEMPLATE =
  'Template ini membutuhkan gambar header, tetapi admin belum mengizinkan pengiriman gambar. Pilih template lain atau hubungi admin.';

export interface TemplateBlastFormProps {
  points: number;
  allowImages: boolean;
  templates: readonly ClientTemplate[];
  /** Sends the checked blast; true once it is created. */
  send: (blast: TemplateBlastToSend) => Promise<boolean>;
  sending: boolean;
  uploading: boolean;
  /** After a blast is created: the form is emptied first. */
  onSent: () => void;
}

/** A failed check is said under its field (which takes the focus) and in a toast. */
function showProblem(errors: FieldErrors<TemplateBlastValues>) {
  const field = FIELDS.find((name) => errors[name]);
  if (!field) return;
  const error = errors[field] as FieldError;
  toast({ variant: 'destructive', title: problemTitle(error.type), description: error.message });
  // The fields the form has no handle on take the focus here.
  if (errors.image) document.getElementById('blast-image')?.focus();
}

/** What a reload gives back: the numbers, the template and its values (an image is chosen again). */
const DRAFT = 'template-blast';
const DRAFT_FIELDS = ['numbers', 'template_id', 'parameters'] as const;

function useTemplateBlastForm(context: TemplateBlastContext) {
  const form = useForm<TemplateBlastValues, TemplateBlastContext, TemplateBlastToSend>({
    resolver: templateBlastResolver,
    context,
    defaultValues: readDraft(DRAFT, EMPTY),
    reValidateMode: 'onSubmit',
  });
  useFormDraft(DRAFT, form, DRAFT_FIELDS);
  const [numbers, templateId, parameters, image] = useWatch({
    control: form.control,
    name: ['numbers', 'template_id', 'parameters', 'image'],
  });
  const analysis = useMemo(() => analyzeNumbers(splitNumbers(numbers)), [numbers]);
  const template = context.templates.find((t) => t.id === templateId) ?? null;
  const chooseTemplate = (id: string) => {
    const chosen = context.templates.find((t) => t.id === id);
    form.setValue('template_id', id);
    form.setValue('parameters', {});
    if (!chosen || !needsImage(chosen)) form.setValue('image', null);
    form.clearErrors();
  };
  const setParameter = (name: string, value: string) =>
    form.setValue('parameters', { ...parameters, [name]: value });
  const dropInvalid = () => {
    form.setValue('numbers', withoutInvalidNumbers(numbers));
    form.clearErrors('numbers');
    form.setFocus('numbers');
  };
  const chooseImage = (chosen: File | null) => {
    form.setValue('image', chosen);
    form.clearErrors('image');
  };
  return {
    form,
    analysis,
    template,
    /** A template was chosen that is no longer in the list. */
    templateGone: templateId !== '' && template === null,
    parameters,
    image,
    chooseTemplate,
    setParameter,
    dropInvalid,
    chooseImage,
  };
}

type TemplateBlast = ReturnType<typeof useTemplateBlastForm>;

/** Why the button waits, or null: a parameter Meta would refuse, an image that cannot be sent. */
function blockedReason(
  template: ClientTemplate | null,
  values: Record<string, string>,
  allowImages: boolean,
) {
  if (!template) return null;
  if (needsImage(template) && !allowImages) return 'Blast dengan template ini belum dapat dikirim.';
  const wrong = Object.values(parameterProblems(template, values)).some(Boolean);
  return wrong ? 'Isi semua parameter template dengan benar untuk mengirim blast.' : null;
}

/** After a failed check of the parameters, the first wrong one takes the focus. */
function focusWrongParameter(template: ClientTemplate | null, values: Record<string, string>) {
  if (!template) return;
  const problems = parameterProblems(template, values);
  const first = template.parameters.find(({ name }) => problems[name]);
  if (first) document.getElementById(parameterId(first.name))?.focus();
}

/** The chosen template's parameters, its header image (or why it cannot be sent) and its text. */
function ChosenTemplate(props: {
  template: ClientTemplate;
  blast: TemplateBlast;
  allowImages: boolean;
  uploading: boolean;
  sending: boolean;
}) {
  const { template, blast, allowImages, sending } = props;
  return (
    <>
      <ParameterFields
        key={template.id}
        template={template}
        values={blast.parameters}
        onValueChange={blast.setParameter}
        disabled={sending}
      />
      {needsImage(template) &&
        (allowImages ? (
          <BlastImageField
            image={blast.image}
            onImageChange={blast.chooseImage}
            uploading={props.uploading}
            disabled={sending}
            required
            error={blast.form.formState.errors.image?.message}
          />
        ) : (
          <Alert variant="warning">{IMAGES_OFF_FOR_TEMPLATE}</Alert>
        ))}
      <TemplatePreview template={template} values={blast.parameters} image={blast.image} />
    </>
  );
}

/** The send button, and why it waits when it does. */
function SendRow({ sending, blocked }: { sending: boolean; blocked: string | null }) {
  return (
    <div className="grid gap-2">
      <SendButton
        sending={sending}
        disabled={blocked !== null}
        describedBy={blocked ? BLOCKED_ID : undefined}
      />
      {blocked && (
        <p id={BLOCKED_ID} className="text-center text-sm text-muted-foreground">
          {blocked}
        </p>
      )}
    </div>
  );
}

/** The chosen template left the list while the form was open. */
const TEMPLATE_GONE =
  'Template yang dipilih tidak dapat dipakai lagi (dijeda WhatsApp atau dinonaktifkan admin). Pilih template lain.';

export function TemplateBlastForm(props: TemplateBlastFormProps) {
  const { points, allowImages, templates, send, sending, uploading, onSent } = props;
  const blast = useTemplateBlastForm({ points, templates });
  const { form, template, parameters } = blast;
  const { errors } = form.formState;
  const blocked = blockedReason(template, parameters, allowImages);

  const sendChecked = async (checked: TemplateBlastToSend) => {
    if (!(await send(checked))) return;
    form.reset(EMPTY);
    onSent();
  };
  const submit = (event: FormEvent<HTMLFormElement>) =>
    sending || blocked
      ? event.preventDefault()
      : form.handleSubmit(sendChecked, (failed) => {
          showProblem(failed);
          if (failed.parameters) focusWrongParameter(template, parameters);
        })(event);

  return (
    <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-6" aria-label="Form blast">
      <BlastNumbersField
        field={form.register('numbers', { onChange: () => form.clearErrors('numbers') })}
        analysis={blast.analysis}
        onDropInvalid={blast.dropInvalid}
        points={points}
        error={errors.numbers?.message}
        disabled={sending}
      />
      <Controller
        control={form.control}
        name="template_id"
        render={({ field }) => (
          <TemplatePicker
            templates={templates}
            value={field.value}
            onChange={blast.chooseTemplate}
            triggerRef={field.ref}
            error={errors.template_id?.message}
            disabled={sending}
          />
        )}
      />
      {blast.templateGone && (
        <Alert variant="warning" data-template-gone="">
          {TEMPLATE_GONE}
        </Alert>
      )}
      {template && (
        <ChosenTemplate
          template={template}
          blast={blast}
          allowImages={allowImages}
          uploading={uploading}
          sending={sending}
        />
      )}
      <SendRow sending={sending} blocked={blocked} />
    </form>
  );
}
