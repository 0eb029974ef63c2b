// Form Blast's target numbers: the text area, every invalid part with a way to drop them all, the
// live figures, and one settled sentence for screen readers.
import { Eraser } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { formatNumber } from '#common/format.ts';
import { MAX_NUMBERS_PER_BLAST, POINTS_PER_NUMBER, type NumberAnalysis } from '#common/phone.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Textarea } from '#client/components/ui/input.tsx';
import { describedBy, Field } from '#client/components/ui/label.tsx';
import { cn } from '#client/lib/cn.ts';
import { numbersSentence } from './blast-form-rules.ts';

const ID = 'blast-numbers';
const SPOKEN_ID = 'blast-numbers-spoken';
const HINT =
  'Pisahkan nomor dengan baris baru, koma, titik koma atau spasi. Format: 08xx, 628xx, +628xx atau 8xx.';
/** How long typing must pause before the summary is spoken. */
const SETTLE_MS = 1000;

export interface BlastNumbersFieldProps {
  /** The text area's registration with the form. */
  field: UseFormRegisterReturn<'numbers'>;
  analysis: NumberAnalysis;
  /** Drops every invalid part from the text (and gives the text area the focus back). */
  onDropInvalid: () => void;
  points: number;
  error?: string;
  disabled: boolean;
}

export function BlastNumbersField(props: BlastNumbersFieldProps) {
  const { field, analysis, onDropInvalid, points, error, disabled } = props;
  const overLimit = analysis.entered > MAX_NUMBERS_PER_BLAST;
  return (
    <div className="grid gap-3">
      <Field id={ID} label="Nomor WhatsApp Tujuan" hint={HINT} error={error} required>
        <Textarea
          id={ID}
          rows={7}
          {...field}
          placeholder={'081234567890\n6281234567891\n+6281234567892'}
          className="font-mono"
          required
          aria-invalid={!!error || analysis.invalid.length > 0 || overLimit || undefined}
          aria-describedby={`${describedBy(ID, error, HINT)} ${SPOKEN_ID}`}
          disabled={disabled}
        />
      </Field>
      <NumbersNotes analysis={analysis} onDropInvalid={onDropInvalid} disabled={disabled} />
      <NumbersFigures analysis={analysis} points={points} />
      <SpokenSummary sentence={numbersSentence(analysis, points)} />
    </div>
  );
}

/** Over the limit, every invalid part (with 'Hapus nomor tidak valid'), duplicates dropped. */
function NumbersNotes({
  analysis,
  onDropInvalid,
  disabled,
}: {
  analysis: NumberAnalysis;
  onDropInvalid: () => void;
  disabled: boolean;
}) {
  const { entered, invalid, duplicates } = analysis;
  if (invalid.length === 0 && duplicates === 0 && entered <= MAX_NUMBERS_PER_BLAST) return null;
  return (
    <ul className="grid gap-2 text-sm" data-numbers-notes="">
      {entered > MAX_NUMBERS_PER_BLAST && (
        <li className="font-medium text-destructive">
          {formatNumber(entered)} nomor dimasukkan, melebihi batas {MAX_NUMBERS_PER_BLAST} nomor per
          blast
        </li>
      )}
      {invalid.length > 0 && (
        <li className="grid gap-2 font-medium text-destructive">
          <span>
            {formatNumber(invalid.length)} nomor tidak valid:{' '}
            <span
              className="block max-h-32 overflow-y-auto wrap-anywhere font-mono"
              data-invalid-parts=""
            >
              {invalid.join(', ')}
            </span>
          </span>
          <Button
            variant="outline"
            size="sm"
            className="justify-self-start"
            onClick={onDropInvalid}
            disabled={disabled}
          >
            <Eraser aria-hidden />
            Hapus nomor tidak valid
          </Button>
        </li>
      )}
      {duplicates > 0 && (
        <li className="text-warning">{formatNumber(duplicates)} nomor duplikat dihapus</li>
      )}
    </ul>
  );
}

/** The figures at a glance; seen, not spoken (the spoken summary says them in sentences). */
function NumbersFigures({ analysis, points }: { analysis: NumberAnalysis; points: number }) {
  const valid = analysis.unique.length;
  const needed = valid * POINTS_PER_NUMBER;
  const shortfall = Math.max(0, needed - points);
  return (
    <dl
      className="grid grid-cols-2 gap-3 rounded-lg border bg-muted/50 p-4 text-sm sm:grid-cols-4"
      data-numbers-summary=""
    >
      <Figure label="Total Nomor" value={`${formatNumber(valid)} / ${MAX_NUMBERS_PER_BLAST}`} />
      <Figure label="Poin Dibutuhkan" value={formatNumber(needed)} />
      <Figure label="Poin Tersedia" value={formatNumber(points)} />
      {shortfall > 0 && (
        <Figure
          label="Kekurangan Poin"
          value={formatNumber(shortfall)}
          className="text-destructive"
        />
      )}
    </dl>
  );
}

function Figure({ label, value, className }: { label: string; value: string; className?: string }) {
  return (
    <div className={cn('grid gap-0.5', className)}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-base font-semibold">{value}</dd>
    </div>
  );
}

/** The summary, spoken once typing pauses: a polite status that changes only when it settles. */
function SpokenSummary({ sentence }: { sentence: string }) {
  const [settled, setSettled] = useState(sentence);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(sentence), SETTLE_MS);
    return () => window.clearTimeout(timer);
  }, [sentence]);
  return (
    <p id={SPOKEN_ID} role="status" className="sr-only" data-numbers-spoken="">
      {settled}
    </p>
  );
}
