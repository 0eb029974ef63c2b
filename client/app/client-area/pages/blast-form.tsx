// Form Blast (/blast-form): the tiles, then the form: numbers, message and optional image, checked
// in SPEC section 5's order on submit (the wrong field says why and takes focus), then sent. In
// Cloud API mode the message is an enabled template with its parameters (decision 206); in gateway
// mode it is the same free message, with spintax checked live and a preview (decision 213).
import { Coins, Target, Wallet } from 'lucide-react';
import { useMemo, type FormEvent, type ReactNode } from 'react';
import { useForm, useWatch, type FieldErrors, type UseFormRegisterReturn } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { MAX_MESSAGE_LENGTH } from '#common/blast-rules.ts';
import { spintaxProblem } from '#common/spintax.ts';
import {
  analyzeNumbers,
  MAX_NUMBERS_PER_BLAST,
  POINTS_PER_NUMBER,
  splitNumbers,
  withoutInvalidNumbers,
} from '#common/phone.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#client/components/ui/card.tsx';
import { Textarea } from '#client/components/ui/input.tsx';
import { describedBy, Field } from '#client/components/ui/label.tsx';
import { LoadError } from '#client/components/ui/load-error.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { toast } from '#client/components/ui/toast.ts';
import { useMe } from '#client/features/auth/api.ts';
import {
  blastResolver,
  problemTitle,
  type BlastFormContext,
  type BlastFormValues,
  type BlastToSend,
} from '#client/features/blasts/blast-form-rules.ts';
import { BlastImageField } from '#client/features/blasts/blast-image-field.tsx';
import { BlastNumbersField } from '#client/features/blasts/blast-numbers-field.tsx';
import { SendButton } from '#client/features/blasts/blast-send-button.tsx';
import { SPINTAX_HINT, SpintaxPreview } from '#client/features/blasts/spintax-preview.tsx';
import { TemplateBlastForm } from '#client/features/blasts/template-blast-form.tsx';
import { useSendBlast } from '#client/features/blasts/use-send-blast.tsx';
import { useClientTemplates } from '#client/features/delivery/client-api.ts';
import { usePublicSettings } from '#client/features/settings/client-api.ts';
import { readDraft, useFormDraft } from '#client/lib/form-draft.ts';
import { formatNumber } from '#client/lib/format.ts';
import { useSession } from '#client/lib/session.ts';

const MESSAGE_ID = 'blast-message';
const EMPTY: BlastFormValues = { numbers: '', message: '', image: null };
/** What a reload gives back: the typed text (an image is chosen again). */
const DRAFT = 'blast';
const DRAFT_FIELDS = ['numbers', 'message'] as const;

/** A failed check is said under its field (which takes the focus) and in a toast. */
function showProblem(errors: FieldErrors<BlastFormValues>) {
  const error = errors.message ?? errors.numbers;
  if (!error) return;
  toast({ variant: 'destructive', title: problemTitle(error.type), description: error.message });
}

/**
 * Hasil Blast, once a blast is made: its code starts downloading while the blast is sent
 * (`prefetch`), and the keyboard starts at the new page, as after a page load (`open`).
 */
function useOpenResults() {
  const navigate = useNavigate();
  return {
    prefetch: () => void import('./blast-results.tsx').catch(() => undefined),
    open: () => {
      void navigate('/blast-results');
      document.getElementById('main')?.focus({ preventScroll: true });
    },
  };
}

/**
 * The form, checked on submit by SPEC's rules in order (`blastResolver`); a failed check stays
 * under its field until that field changes, and nothing is checked again before the next submit.
 */
function useBlastForm(context: BlastFormContext) {
  const form = useForm<BlastFormValues, BlastFormContext, BlastToSend>({
    resolver: blastResolver,
    context,
    defaultValues: readDraft(DRAFT, EMPTY),
    reValidateMode: 'onSubmit',
  });
  useFormDraft(DRAFT, form, DRAFT_FIELDS);
  const [numbers, message, image] = useWatch({
    control: form.control,
    name: ['numbers', 'message', 'image'],
  });
  const analysis = useMemo(() => analyzeNumbers(splitNumbers(numbers)), [numbers]);
  const field = <Name extends 'numbers' | 'message'>(name: Name) =>
    form.register(name, { onChange: () => form.clearErrors(name) });
  const dropInvalid = () => {
    form.setValue('numbers', withoutInvalidNumbers(numbers));
    form.clearErrors('numbers');
    // The button goes away with the invalid parts: the keyboard goes back to the list.
    form.setFocus('numbers');
  };
  return { form, analysis, message, image, field, dropInvalid };
}

/**
 * The numbers, the message and the optional image, checked by SPEC's rules before sending; with
 * `spintax` (gateway mode) the message's spintax is checked as it is typed and previewed.
 */
function BlastForm({ points, allowImages, spintax = false }: BlastFormContext) {
  const results = useOpenResults();
  const { send, sending, uploading } = useSendBlast();
  const { form, analysis, message, image, field, dropInvalid } = useBlastForm({
    points,
    allowImages,
    spintax,
  });
  const { errors } = form.formState;
  const liveProblem = spintax && message.trim() ? spintaxProblem(message) : null;

  const sendChecked = async (blast: BlastToSend) => {
    results.prefetch();
    if (!(await send(blast))) return;
    form.reset(EMPTY);
    results.open();
  };
  const submit = (event: FormEvent<HTMLFormElement>) =>
    sending ? event.preventDefault() : form.handleSubmit(sendChecked, showProblem)(event);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Buat Blast Request</CardTitle>
      </CardHeader>
      <CardContent>
        <form
          onSubmit={submit}
          noValidate
          className="grid grid-cols-1 gap-6"
          aria-label="Form blast"
        >
          <BlastNumbersField
            field={field('numbers')}
            analysis={analysis}
            onDropInvalid={dropInvalid}
            points={points}
            error={errors.numbers?.message}
            disabled={sending}
          />
          <MessageField
            field={field('message')}
            length={message.length}
            error={errors.message?.message ?? liveProblem ?? undefined}
            hint={spintax ? SPINTAX_HINT : undefined}
            disabled={sending}
          />
          {spintax && (
            <SpintaxPreview message={message} number={analysis.unique[0]} image={image} />
          )}
          {allowImages && (
            <BlastImageField
              image={image}
              onImageChange={(chosen) => form.setValue('image', chosen)}
              uploading={uploading}
              disabled={sending}
            />
          )}
          <SendButton sending={sending} />
        </form>
      </CardContent>
    </Card>
  );
}

export default function BlastFormPage() {
  const session = useSession();
  const me = useMe();
  const settings = usePublicSettings();
  const points = me.data?.points ?? session?.user.points ?? 0;

  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader
        className="mb-0"
        title="Form Blast WhatsApp"
        description="Kirim satu pesan ke banyak nomor WhatsApp sekaligus. Setiap nomor memakai 1 poin."
      />

      <section aria-label="Ringkasan poin" className="grid grid-cols-3 gap-2 sm:gap-4">
        <Tile icon={Wallet} label="Poin Tersedia" value={`${formatNumber(points)} poin`} />
        <Tile icon={Target} label="Max Target" value={`${MAX_NUMBERS_PER_BLAST} nomor`} />
        <Tile icon={Coins} label="Biaya per Nomor" value={`${POINTS_PER_NUMBER} poin`} />
      </section>

      {settings.isPending ? (
        <FormCard>
          <PageSpinner label="Memuat form blast..." />
        </FormCard>
      ) : settings.data?.delivery_mode === 'cloud_api' ? (
        <TemplateBlast points={points} allowImages={settings.data.allow_images} />
      ) : (
        <BlastForm
          points={points}
          allowImages={settings.data?.allow_images === true}
          spintax={settings.data?.delivery_mode === 'gateway'}
        />
      )}
    </div>
  );
}

function FormCard({ children }: { children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Buat Blast Request</CardTitle>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

/** Cloud API mode: the enabled templates, or why there is nothing to send with. */
function TemplateBlast({ points, allowImages }: BlastFormContext) {
  const templates = useClientTemplates();
  const results = useOpenResults();
  const { send, sending, uploading } = useSendBlast();
  if (templates.isPending) {
    return (
      <FormCard>
        <PageSpinner label="Memuat template pesan..." />
      </FormCard>
    );
  }
  if (templates.isError) return <LoadError />;
  return (
    <FormCard>
      {templates.data.length === 0 ? (
        <Alert variant="warning" title="Template belum tersedia">
          Belum ada template pesan yang dapat dipakai. Hubungi admin.
        </Alert>
      ) : (
        <TemplateBlastForm
          points={points}
          allowImages={allowImages}
          templates={templates.data}
          send={(blast) => {
            results.prefetch();
            return send(blast);
          }}
          sending={sending}
          uploading={uploading}
          onSent={results.open}
        />
      )}
    </FormCard>
  );
}

function MessageField({
  field,
  length,
  error,
  hint,
  disabled,
}: {
  field: UseFormRegisterReturn<'message'>;
  length: number;
  error?: string;
  hint?: string;
  disabled: boolean;
}) {
  const counterId = `${MESSAGE_ID}-counter`;
  return (
    <Field id={MESSAGE_ID} label="Pesan" error={error} hint={hint} required>
      <Textarea
        id={MESSAGE_ID}
        rows={6}
        {...field}
        maxLength={MAX_MESSAGE_LENGTH}
        placeholder="Tulis pesan yang akan dikirim ke semua nomor..."
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={[describedBy(MESSAGE_ID, error, hint), counterId]
          .filter(Boolean)
          .join(' ')}
        disabled={disabled}
      />
      <p id={counterId} className="text-right text-xs text-muted-foreground">
        {formatNumber(length)}/{formatNumber(MAX_MESSAGE_LENGTH)} karakter
      </p>
    </Field>
  );
}

function Tile({ icon: Icon, label, value }: { icon: typeof Coins; label: string; value: string }) {
  return (
    <Card className="flex items-center gap-4 p-3 sm:p-4">
      <span className="hidden size-10 shrink-0 place-items-center rounded-lg bg-primary-soft text-primary sm:grid">
        <Icon aria-hidden className="size-5" />
      </span>
      <div className="min-w-0">
        <p className="text-xs font-medium text-muted-foreground">{label}</p>
        <p className="text-base font-bold sm:text-lg">{value}</p>
      </div>
    </Card>
  );
}
