// Form Blast (/blast-form): target numbers with live checks, the message, an optional image, and
// the submit with SPEC section 5's checks in order, the image uploaded first and one charge only.
import {
  Coins,
  ImageOff,
  ImagePlus,
  LoaderCircle,
  Send,
  Target,
  Trash2,
  Wallet,
} from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { BLAST_MESSAGES, MAX_MESSAGE_LENGTH } from '../../../../common/blast-rules.ts';
import {
  analyzeNumbers,
  MAX_NUMBERS_PER_BLAST,
  POINTS_PER_NUMBER,
  splitNumbers,
} from '../../../../common/phone.ts';
import { IMAGE_TYPE_MESSAGE } from '../../../../common/upload-rules.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Textarea } from '../../../components/ui/input.tsx';
import { describedBy, Field } from '../../../components/ui/label.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { toast, toastError, toastSuccess } from '../../../components/ui/toast.ts';
import { useMe } from '../../../features/auth/api.ts';
import { uploadBlastImage, useCreateBlast } from '../../../features/blasts/client-api.ts';
import { usePublicSettings } from '../../../features/settings/client-api.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { cn } from '../../../lib/cn.ts';
import { formatNumber } from '../../../lib/format.ts';
import { useSession } from '../../../lib/session.ts';
import { CLIENT_PAGES, preloadPage } from '../../pages.ts';

/** A random UUID; crypto.randomUUID exists only on https and localhost, getRandomValues always. */
function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

type PreviewState =
  | { status: 'none' }
  | { status: 'loading'; url: string | null }
  | { status: 'ready'; url: string }
  | { status: 'failed' };

const formatMegabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

export default function BlastFormPage() {
  const navigate = useNavigate();
  const session = useSession();
  const me = useMe();
  const settings = usePublicSettings();
  const createBlast = useCreateBlast();
  const [numbersText, setNumbersText] = useState('');
  const [message, setMessage] = useState('');
  const [image, setImage] = useState<File | null>(null);
  const [sending, setSending] = useState(false);
  // True only while the image itself is on its way (the first step of a submit).
  const [uploading, setUploading] = useState(false);
  // Set synchronously on submit, so a second click in the same instant is refused.
  const sendingRef = useRef(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const points = me.data?.points ?? session?.user.points ?? 0;
  const allowImages = settings.data?.allow_images === true;
  const parts = useMemo(() => splitNumbers(numbersText), [numbersText]);
  const analysis = useMemo(() => analyzeNumbers(parts), [parts]);
  const valid = analysis.unique.length;
  const needed = valid * POINTS_PER_NUMBER;
  const shortfall = Math.max(0, needed - points);
  const overLimit = parts.length > MAX_NUMBERS_PER_BLAST;

  // A data URL, not a blob: URL, which the server's Content-Security-Policy (img-src) refuses.
  // 'loading' while the file is read and decoded, 'failed' when it cannot be shown.
  const [preview, setPreview] = useState<PreviewState>({ status: 'none' });
  useEffect(() => {
    if (!image) return setPreview({ status: 'none' });
    setPreview({ status: 'loading', url: null });
    const reader = new FileReader();
    reader.onload = () =>
      setPreview(
        typeof reader.result === 'string'
          ? { status: 'loading', url: reader.result }
          : { status: 'failed' },
      );
    reader.onerror = () => setPreview({ status: 'failed' });
    reader.readAsDataURL(image);
    return () => reader.abort();
  }, [image]);

  const chooseImage = (file: File | undefined) => {
    if (!file) return;
    // accept="image/*" is only a hint to the file picker; anything else is refused at once.
    if (!file.type.startsWith('image/')) {
      if (fileInput.current) fileInput.current.value = '';
      return void toastError(IMAGE_TYPE_MESSAGE, 'Error Upload Gambar');
    }
    setImage(file);
  };

  /** Forgets the image and gives the keyboard back to the picker that replaces the preview. */
  const removeImage = (refocus = true) => {
    setImage(null);
    if (fileInput.current) fileInput.current.value = '';
    if (refocus) requestAnimationFrame(() => fileInput.current?.focus());
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sendingRef.current) return;
    // SPEC section 5, in this order.
    if (!message.trim()) return void toastError(BLAST_MESSAGES.emptyMessage);
    if (parts.length === 0) return void toastError(BLAST_MESSAGES.emptyNumbers);
    if (overLimit) {
      return void toast({
        variant: 'destructive',
        title: BLAST_MESSAGES.tooManyTitle,
        description: `${BLAST_MESSAGES.tooMany}. Anda memasukkan ${formatNumber(parts.length)} nomor.`,
      });
    }
    if (analysis.invalid.length > 0)
      return void toastError(BLAST_MESSAGES.invalid(analysis.invalid.length));
    if (needed > points) {
      return void toast({
        variant: 'destructive',
        title: BLAST_MESSAGES.notEnoughTitle,
        description: BLAST_MESSAGES.notEnough(needed, points),
      });
    }

    sendingRef.current = true;
    setSending(true);
    // Hasil Blast comes next: its code downloads while the blast is being sent.
    preloadPage(CLIENT_PAGES, '/blast-results');
    const idempotencyKey = newIdempotencyKey();
    try {
      let imageUrl: string | null = null;
      // Why the image was left out (the server's Indonesian reason), or null when it was not.
      let imageDropped: string | null = null;
      if (image && allowImages) {
        setUploading(true);
        try {
          imageUrl = (await uploadBlastImage(image)).url;
        } catch (failure) {
          console.error('Upload gambar gagal:', failure);
          imageDropped = errorMessage(failure, '');
          toastError(
            'Gagal mengupload gambar. Blast akan dikirim tanpa gambar.',
            'Error Upload Gambar',
          );
        } finally {
          setUploading(false);
        }
      }
      const blast = await createBlast.mutateAsync({
        input: { message, target_numbers: analysis.unique, image_url: imageUrl },
        idempotencyKey,
      });
      // One toast at a time: the success replaces the upload error, so it repeats that fact.
      toastSuccess(
        <>
          <span className="block">
            Blast request berhasil dibuat untuk {blast.total_numbers} nomor
          </span>
          {imageDropped !== null && (
            <span className="block">
              Gambar tidak ikut terkirim.{imageDropped && ` ${imageDropped}`}
            </span>
          )}
        </>,
      );
      setNumbersText('');
      setMessage('');
      removeImage(false);
      navigate('/blast-results');
    } catch (failure) {
      toastError(errorMessage(failure, 'Gagal membuat blast request'));
    } finally {
      sendingRef.current = false;
      setSending(false);
    }
  };

  const numbersHint =
    'Pisahkan nomor dengan baris baru, koma, titik koma atau spasi. Format: 08xx, 628xx, +628xx atau 8xx.';
  const messageCounterId = 'blast-message-counter';

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
            <Field id="blast-numbers" label="Nomor WhatsApp Tujuan" hint={numbersHint} required>
              <Textarea
                id="blast-numbers"
                rows={7}
                value={numbersText}
                onChange={(event) => setNumbersText(event.target.value)}
                placeholder={'081234567890\n6281234567891\n+6281234567892'}
                className="font-mono"
                aria-invalid={analysis.invalid.length > 0 || overLimit || undefined}
                aria-describedby={`${describedBy('blast-numbers', undefined, numbersHint)} blast-numbers-summary`}
                disabled={sending}
              />
            </Field>

            <div id="blast-numbers-summary" aria-live="polite" className="grid gap-3">
              {(analysis.invalid.length > 0 || analysis.duplicates > 0 || overLimit) && (
                <ul className="grid gap-1 text-sm" data-numbers-notes="">
                  {overLimit && (
                    <li className="font-medium text-destructive">
                      {formatNumber(parts.length)} nomor dimasukkan, melebihi batas{' '}
                      {MAX_NUMBERS_PER_BLAST} nomor per blast
                    </li>
                  )}
                  {analysis.invalid.length > 0 && (
                    <li className="font-medium text-destructive">
                      {analysis.invalid.length} nomor tidak valid:{' '}
                      <span className="break-all font-mono">
                        {analysis.invalid.slice(0, 5).join(', ')}
                        {analysis.invalid.length > 5 ? ', …' : ''}
                      </span>
                    </li>
                  )}
                  {analysis.duplicates > 0 && (
                    <li className="text-warning">{analysis.duplicates} nomor duplikat dihapus</li>
                  )}
                </ul>
              )}
              <dl
                className="grid grid-cols-2 gap-3 rounded-lg border bg-muted/50 p-4 text-sm sm:grid-cols-4"
                data-numbers-summary=""
              >
                <SummaryItem
                  label="Total Nomor"
                  value={`${formatNumber(valid)} / ${MAX_NUMBERS_PER_BLAST}`}
                />
                <SummaryItem label="Poin Dibutuhkan" value={formatNumber(needed)} />
                <SummaryItem label="Poin Tersedia" value={formatNumber(points)} />
                {shortfall > 0 && (
                  <SummaryItem
                    label="Kekurangan Poin"
                    value={formatNumber(shortfall)}
                    className="text-destructive"
                  />
                )}
              </dl>
            </div>

            <Field id="blast-message" label="Pesan" required>
              <Textarea
                id="blast-message"
                rows={6}
                value={message}
                maxLength={MAX_MESSAGE_LENGTH}
                onChange={(event) => setMessage(event.target.value)}
                placeholder="Tulis pesan yang akan dikirim ke semua nomor..."
                aria-describedby={messageCounterId}
                disabled={sending}
              />
              <p id={messageCounterId} className="text-right text-xs text-muted-foreground">
                {formatNumber(message.length)}/{formatNumber(MAX_MESSAGE_LENGTH)} karakter
              </p>
            </Field>

            {allowImages && (
              <div className="grid grid-cols-1 gap-2">
                <p className="text-sm font-medium" id="blast-image-label">
                  Gambar (Opsional)
                </p>
                {image ? (
                  <div
                    className="flex flex-col gap-3 rounded-lg border p-3 sm:flex-row sm:items-center"
                    data-image-preview=""
                    data-preview-status={uploading ? 'uploading' : preview.status}
                    aria-busy={preview.status === 'loading' || uploading || undefined}
                  >
                    <div className="relative grid h-40 w-full shrink-0 place-items-center overflow-hidden rounded-md bg-muted sm:w-40">
                      {preview.status === 'failed' ? (
                        <span className="grid justify-items-center gap-1 p-2 text-center text-xs text-muted-foreground">
                          <ImageOff aria-hidden className="size-6" />
                          Preview tidak dapat dimuat
                        </span>
                      ) : (
                        <>
                          {preview.status === 'loading' && (
                            <span className="grid justify-items-center gap-1 text-xs text-muted-foreground">
                              <LoaderCircle aria-hidden className="size-6 animate-spin" />
                              Memuat pratinjau...
                            </span>
                          )}
                          {'url' in preview && preview.url && (
                            <img
                              src={preview.url}
                              alt="Pratinjau gambar blast"
                              onLoad={() => setPreview({ status: 'ready', url: preview.url! })}
                              onError={() => setPreview({ status: 'failed' })}
                              className={cn(
                                'absolute inset-0 size-full object-contain',
                                preview.status === 'loading' && 'invisible',
                              )}
                            />
                          )}
                        </>
                      )}
                      {uploading && (
                        <span
                          role="status"
                          className="absolute inset-0 grid place-content-center justify-items-center gap-1 bg-background/80 text-xs font-medium"
                        >
                          <LoaderCircle aria-hidden className="size-6 animate-spin text-primary" />
                          Mengupload gambar...
                        </span>
                      )}
                    </div>
                    <div className="min-w-0 flex-1">
                      <p className="truncate text-sm font-medium" title={image.name}>
                        {image.name}
                      </p>
                      <p className="text-xs text-muted-foreground">{formatMegabytes(image.size)}</p>
                    </div>
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => removeImage()}
                      disabled={sending}
                      className="self-start sm:self-center"
                    >
                      <Trash2 aria-hidden />
                      Hapus gambar
                    </Button>
                  </div>
                ) : (
                  <div>
                    <input
                      ref={fileInput}
                      id="blast-image"
                      type="file"
                      accept="image/*"
                      className="peer sr-only"
                      aria-labelledby="blast-image-label"
                      aria-describedby="blast-image-hint"
                      disabled={sending}
                      onChange={(event) => chooseImage(event.target.files?.[0])}
                    />
                    <label
                      htmlFor="blast-image"
                      className="flex cursor-pointer flex-col items-center gap-2 rounded-lg border-2 border-dashed border-input p-6 text-center transition-colors hover:border-primary hover:bg-primary-soft/40 peer-focus-visible:border-ring peer-focus-visible:ring-2 peer-focus-visible:ring-ring/30"
                    >
                      <ImagePlus aria-hidden className="size-8 text-muted-foreground" />
                      <span className="text-sm font-medium">Klik untuk memilih gambar</span>
                      <span id="blast-image-hint" className="text-xs text-muted-foreground">
                        PNG, JPG, GIF hingga 5MB
                      </span>
                    </label>
                  </div>
                )}
              </div>
            )}

            <Button type="submit" size="lg" className="w-full" loading={sending}>
              {!sending && <Send aria-hidden />}
              {sending ? 'Memproses Blast...' : 'KIRIM BLAST REQUEST'}
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
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

function SummaryItem({
  label,
  value,
  className,
}: {
  label: string;
  value: string;
  className?: string;
}) {
  return (
    <div className={cn('grid gap-0.5', className)}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-base font-semibold">{value}</dd>
    </div>
  );
}
