// Gateway mode's spintax on the screens (decision 213): Form Blast's hint on spintax and {nomor}
// and 'Pratinjau', one rendering of the message (with the chosen image) for the first valid
// number, drawn again with 'Acak ulang'; and the detail's note that each number got a variation.
import { Shuffle } from 'lucide-react';
import { useState } from 'react';
import { formatNumber } from '#common/format.ts';
import { parseSpintax, renderMessage, spintaxProblem, spintaxVariations } from '#common/spintax.ts';
import type { Blast } from '#common/blasts.ts';
import { Button } from '#client/components/ui/button.tsx';
import { useDataUrl } from '#client/components/ui/use-data-url.ts';

/** The number `{nomor}` shows before a valid number is typed. */
const EXAMPLE_NUMBER = '6281234567890';

export const SPINTAX_HINT =
  'Tulis {Halo|Hai|Selamat pagi} agar setiap nomor menerima salah satu pilihan secara acak, ' +
  'dan {nomor} untuk nomor tujuan.';

/** Another seed whose rendering differs from the one shown, when the message has several. */
function nextSeed(message: string, number: string, seed: number): number {
  const shown = renderMessage(message, number, `pratinjau:${seed}`);
  for (let next = seed + 1; next < seed + 50; next += 1)
    if (renderMessage(message, number, `pratinjau:${next}`) !== shown) return next;
  return seed + 1;
}

export function SpintaxPreview({
  message,
  number,
  image,
}: {
  message: string;
  number?: string | undefined;
  image: File | null;
}) {
  const [seed, setSeed] = useState(0);
  const imageUrl = useDataUrl(image);
  const shownNumber = number ?? EXAMPLE_NUMBER;
  const problem = message.trim() ? spintaxProblem(message) : null;
  const ready = message.trim() !== '' && problem === null;
  const variations = ready ? spintaxVariations(message) : 0;
  const text = ready ? renderMessage(message, shownNumber, `pratinjau:${seed}`) : null;

  return (
    <section aria-labelledby="spintax-preview-title" className="grid gap-2" data-spintax-preview="">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="grid gap-0.5">
          <h3 id="spintax-preview-title" className="text-sm font-medium">
            Pratinjau
          </h3>
          <p className="text-xs text-muted-foreground">
            {number ? `Untuk nomor ${number}` : `Contoh untuk nomor ${EXAMPLE_NUMBER}`}
            {variations > 1 && ` · ${formatNumber(variations)} variasi pesan`}
          </p>
        </div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={variations < 2}
          onClick={() => setSeed((current) => nextSeed(message, shownNumber, current))}
        >
          <Shuffle aria-hidden />
          Acak ulang
        </Button>
      </div>
      <div className="rounded-lg bg-muted p-3 sm:p-4">
        <div className="grid max-w-md gap-2 rounded-lg rounded-tl-none bg-card p-2 shadow-sm">
          {imageUrl && imageUrl !== 'error' && (
            <img
              src={imageUrl}
              alt="Gambar yang dikirim bersama pesan"
              className="max-h-48 w-full rounded-md object-cover"
            />
          )}
          <p
            className="whitespace-pre-wrap break-words px-1 text-sm leading-relaxed"
            aria-live="polite"
            data-preview-text=""
          >
            {text ??
              (problem
                ? 'Perbaiki spintax pada pesan untuk melihat pratinjau.'
                : 'Tulis pesan untuk melihat pratinjau.')}
          </p>
        </div>
      </div>
    </section>
  );
}

/** What a gateway blast's message varies by: its choices and whether it names {nomor}. */
function spintaxNote(message: string): string | null {
  const variations = spintaxVariations(message);
  const named = parseSpintax(message).parts?.some((part) => part.kind === 'number') ?? false;
  const number = named ? ', dengan {nomor} diganti nomor tujuannya' : '';
  if (variations > 1)
    return `Setiap nomor menerima salah satu dari ${formatNumber(variations)} variasi pesan ini${number}.`;
  return named ? `Setiap nomor menerima pesan ini${number}.` : null;
}

/** A gateway blast with spintax or {nomor}: each number got its own rendering of the message. */
export function SpintaxNote({ blast }: { blast: Pick<Blast, 'delivery_mode' | 'message'> }) {
  const note = blast.delivery_mode === 'gateway' ? spintaxNote(blast.message) : null;
  if (!note) return null;
  return (
    <p className="text-xs text-muted-foreground" data-spintax-note="">
      {note}
    </p>
  );
}
