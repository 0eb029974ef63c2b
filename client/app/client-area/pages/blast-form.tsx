// Form Blast (/blast-form): the tiles, then the form: numbers, message and optional image, checked
// in SPEC section 5's order on submit (the wrong field says why and takes focus), then sent.
import { Coins, Send, Target, Wallet } from 'lucide-react';
import { useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { MAX_MESSAGE_LENGTH } from '#common/blast-rules.ts';
import {
  analyzeNumbers,
  MAX_NUMBERS_PER_BLAST,
  POINTS_PER_NUMBER,
  splitNumbers,
} from '#common/phone.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#client/components/ui/card.tsx';
import { Textarea } from '#client/components/ui/input.tsx';
import { describedBy, Field } from '#client/components/ui/label.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { toast } from '#client/components/ui/toast.ts';
import { useMe } from '#client/features/auth/api.ts';
import {
  blastProblem,
  type BlastField,
  type BlastProblem,
} from '#client/features/blasts/blast-form-rules.ts';
import { BlastImageField } from '#client/features/blasts/blast-image-field.tsx';
import {
  BLAST_NUMBERS_ID,
  BlastNumbersField,
} from '#client/features/blasts/blast-numbers-field.tsx';
import { useSendBlast } from '#client/features/blasts/use-send-blast.tsx';
import { usePublicSettings } from '#client/features/settings/client-api.ts';
import { formatNumber } from '#client/lib/format.ts';
import { useSession } from '#client/lib/session.ts';

const MESSAGE_ID = 'blast-message';
const FIELD_IDS: Record<BlastField, string> = { message: MESSAGE_ID, numbers: BLAST_NUMBERS_ID };

/** A failed check: its field takes the focus, and a toast says it too. */
function showProblem(found: BlastProblem) {
  document.getElementById(FIELD_IDS[found.field])?.focus();
  toast({ variant: 'destructive', title: found.title ?? 'Error', description: found.text });
}

function SendButton({ sending }: { sending: boolean }) {
  return (
    <Button type="submit" size="lg" className="w-full" loading={sending}>
      {!sending && <Send aria-hidden />}
      {sending ? 'Memproses Blast...' : 'KIRIM BLAST REQUEST'}
    </Button>
  );
}

/** The numbers, the message and the optional image, checked by SPEC's rules before sending. */
function BlastForm({ points, allowImages }: { points: number; allowImages: boolean }) {
  const navigate = useNavigate();
  const { send, sending, uploading } = useSendBlast();
  const [numbersText, setNumbersText] = useState('');
  const [message, setMessage] = useState('');
  const [image, setImage] = useState<File | null>(null);
  // The failed check shown under its field until that field changes.
  const [problem, setProblem] = useState<BlastProblem | null>(null);

  const analysis = useMemo(() => analyzeNumbers(splitNumbers(numbersText)), [numbersText]);
  const errorOf = (field: BlastField) => (problem?.field === field ? problem.text : undefined);
  const edit = (field: BlastField, apply: () => void) => {
    apply();
    if (problem?.field === field) setProblem(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    const found = blastProblem({ message, analysis, points });
    if (found) {
      setProblem(found);
      return showProblem(found);
    }
    // Hasil Blast comes next: its code downloads while the blast is being sent.
    import('./blast-results.tsx').catch(() => undefined);
    const sent = await send({
      message,
      numbers: analysis.unique,
      image: allowImages ? image : null,
    });
    if (!sent) return;
    setNumbersText('');
    setMessage('');
    setImage(null);
    void navigate('/blast-results');
    // The form is gone: the keyboard starts at the new page, as after a page load.
    document.getElementById('main')?.focus({ preventScroll: true });
  };

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
            text={numbersText}
            onTextChange={(text) => edit('numbers', () => setNumbersText(text))}
            analysis={analysis}
            points={points}
            error={errorOf('numbers')}
            disabled={sending}
          />
          <MessageField
            value={message}
            onChange={(text) => edit('message', () => setMessage(text))}
            error={errorOf('message')}
            disabled={sending}
          />
          {allowImages && (
            <BlastImageField
              image={image}
              onImageChange={setImage}
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

      <BlastForm points={points} allowImages={settings.data?.allow_images === true} />
    </div>
  );
}

function MessageField({
  value,
  onChange,
  error,
  disabled,
}: {
  value: string;
  onChange: (text: string) => void;
  error?: string;
  disabled: boolean;
}) {
  const counterId = `${MESSAGE_ID}-counter`;
  return (
    <Field id={MESSAGE_ID} label="Pesan" error={error} required>
      <Textarea
        id={MESSAGE_ID}
        rows={6}
        value={value}
        maxLength={MAX_MESSAGE_LENGTH}
        onChange={(event) => onChange(event.target.value)}
        placeholder="Tulis pesan yang akan dikirim ke semua nomor..."
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={[describedBy(MESSAGE_ID, error), counterId].filter(Boolean).join(' ')}
        disabled={disabled}
      />
      <p id={counterId} className="text-right text-xs text-muted-foreground">
        {formatNumber(value.length)}/{formatNumber(MAX_MESSAGE_LENGTH)} karakter
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
