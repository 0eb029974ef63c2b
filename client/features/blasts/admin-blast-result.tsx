// The 'Input Hasil' / 'Edit Hasil' dialog: three counts and admin notes, with SPEC's sum rules.
import { useState, type FormEvent } from 'react';
import {
  BlastResultSchema,
  resultFormCounts,
  resultSumMessage,
  type Blast,
} from '#common/blasts.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#client/components/ui/dialog.tsx';
import { Input, Textarea } from '#client/components/ui/input.tsx';
import { Field } from '#client/components/ui/label.tsx';
import { toastError, toastSuccess } from '#client/components/ui/toast.ts';
import { failureText } from '#client/lib/api-client.ts';
import { formatNumber } from '#client/lib/format.ts';
import { useSubmitBlastResult } from './admin-api.ts';

type CountName = 'successful_count' | 'failed_count' | 'no_wa_count';
const COUNT_FIELDS: { name: CountName; label: string; id: string }[] = [
  { name: 'successful_count', label: 'Berhasil', id: 'result-success' },
  { name: 'failed_count', label: 'Gagal', id: 'result-failed' },
  { name: 'no_wa_count', label: 'Tidak Ada WA', id: 'result-no-wa' },
];

/** A count as typed: blank is 0 (SPEC); anything else must be a whole number of at least 0. */
function parseCount(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  const value = Number(trimmed);
  return Number.isInteger(value) && value >= 0 ? value : null;
}

type Counts<Value> = Record<CountName, Value>;

function CountFields(props: {
  counts: Counts<string>;
  parsed: Counts<number | null>;
  over: boolean;
  total: number;
  onChange: (name: CountName, value: string) => void;
}) {
  return (
    <div className="grid items-start gap-4 sm:grid-cols-3">
      {COUNT_FIELDS.map(({ name, label, id }) => (
        <Field key={name} id={id} label={label}>
          <Input
            id={id}
            type="number"
            inputMode="numeric"
            min={0}
            max={props.total}
            step={1}
            value={props.counts[name]}
            aria-invalid={props.over || props.parsed[name] === null}
            aria-describedby="result-sum"
            onChange={(event) => props.onChange(name, event.target.value)}
          />
        </Field>
      ))}
    </div>
  );
}

/** What the counts come to, as typed: SPEC's sum message, then the total and the refund. */
function ResultSum(props: {
  allValid: boolean;
  sum: number;
  total: number;
  refund: number;
  /** The saved refund when editing a result, else null. */
  previousRefund: number | null;
}) {
  const { allValid, sum, total, refund, previousRefund } = props;
  const over = sum > total;
  const message = resultSumMessage(sum, total);
  return (
    <>
      <div id="result-sum" data-result-sum="">
        {!allValid ? (
          <Alert variant="destructive">Jumlah harus bilangan bulat 0 atau lebih</Alert>
        ) : (
          <Alert
            variant={over || sum === 0 ? 'destructive' : sum === total ? 'success' : 'warning'}
          >
            {message}
          </Alert>
        )}
      </div>
      {allValid && !over && (
        <p className="text-sm text-muted-foreground" data-result-refund="">
          Total: <strong className="text-foreground">{formatNumber(sum)}</strong> dari{' '}
          {formatNumber(total)} nomor · Refund:{' '}
          <strong className="text-foreground">{formatNumber(refund)} poin</strong>
          {previousRefund !== null && refund !== previousRefund && (
            <> (sebelumnya {formatNumber(previousRefund)} poin)</>
          )}
        </p>
      )}
    </>
  );
}

/** The three counts as typed, what they parse to, their sum and whether they can be submitted. */
function useResultCounts(blast: Blast) {
  const total = blast.total_numbers;
  // A new result starts from the saved per-number statuses (pending ones successful); an edit
  // starts from the saved result.
  const [counts, setCounts] = useState<Record<CountName, string>>(() => {
    const start = resultFormCounts(blast);
    return {
      successful_count: String(start.successful_count),
      failed_count: String(start.failed_count),
      no_wa_count: String(start.no_wa_count),
    };
  });
  const setCount = (name: CountName, value: string) =>
    setCounts((current) => ({ ...current, [name]: value }));
  const parsed = {
    successful_count: parseCount(counts.successful_count),
    failed_count: parseCount(counts.failed_count),
    no_wa_count: parseCount(counts.no_wa_count),
  };
  const allValid = Object.values(parsed).every((v) => v !== null);
  const sum =
    (parsed.successful_count ?? 0) + (parsed.failed_count ?? 0) + (parsed.no_wa_count ?? 0);
  const over = sum > total;
  const refund = (parsed.failed_count ?? 0) + (parsed.no_wa_count ?? 0);
  const canSubmit = allValid && !over && sum > 0;
  return { counts, setCount, parsed, allValid, sum, over, refund, canSubmit };
}

export function AdminBlastResultDialog({ blast, onClose }: { blast: Blast; onClose: () => void }) {
  const submit = useSubmitBlastResult();
  const total = blast.total_numbers;
  const editing = blast.status === 'completed';
  const [notes, setNotes] = useState(editing ? (blast.admin_notes ?? '') : '');

  const { counts, setCount, parsed, allValid, sum, over, refund, canSubmit } =
    useResultCounts(blast);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmit) return;
    const input = BlastResultSchema.safeParse({ ...parsed, admin_notes: notes.trim() || null });
    if (!input.success) {
      toastError(input.error.issues[0]?.message ?? 'Gagal submit hasil blast');
      return;
    }
    try {
      await submit.mutateAsync({ id: blast.id, input: input.data });
      toastSuccess('Hasil blast berhasil disubmit');
      onClose();
    } catch (error) {
      console.error(error);
      // The server refuses e.g. taking back a refund the client has already spent: say why.
      toastError(failureText(error, 'Gagal submit hasil blast'));
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && !submit.isPending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{editing ? 'Edit Hasil Blast' : 'Input Hasil Blast'}</DialogTitle>
          <DialogDescription>
            Blast dari <span className="font-medium text-foreground">{blast.username}</span> ke{' '}
            <span className="font-medium text-foreground">{formatNumber(total)} nomor</span>. Nomor
            gagal dan tanpa WhatsApp dikembalikan sebagai poin.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <CountFields
            counts={counts}
            parsed={parsed}
            over={over}
            total={total}
            onChange={setCount}
          />
          <ResultSum
            allValid={allValid}
            sum={sum}
            total={total}
            refund={refund}
            previousRefund={editing ? blast.refund_points : null}
          />
          <Field id="result-notes" label="Catatan Admin (opsional)">
            <Textarea
              id="result-notes"
              rows={3}
              maxLength={5000}
              placeholder="Catatan untuk hasil blast ini"
              value={notes}
              onChange={(event) => setNotes(event.target.value)}
            />
          </Field>
          <DialogFooter>
            <Button variant="outline" onClick={onClose} disabled={submit.isPending}>
              Batal
            </Button>
            <Button type="submit" disabled={!canSubmit} loading={submit.isPending}>
              {editing ? 'Simpan Hasil' : 'Submit Hasil'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
