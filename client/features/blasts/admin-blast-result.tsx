// The 'Input Hasil' / 'Edit Hasil' dialog: three counts and admin notes, with SPEC's sum rules.
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch, type UseFormRegister } from 'react-hook-form';
import {
  BlastResultSchema,
  resultFormCounts,
  resultSumMessage,
  type Blast,
  type BlastResultInput,
} from '#common/blasts.ts';
import { z } from '#common/zod.ts';
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
import { runAction, toastError } from '#client/components/ui/toast.ts';
import { viaForm } from '#client/lib/form-schema.ts';
import { formatNumber } from '#client/lib/format.ts';
import { useSubmitBlastResult } from './admin-api.ts';

type CountName = 'successful_count' | 'failed_count' | 'no_wa_count';
const COUNT_FIELDS: { name: CountName; label: string; id: string }[] = [
  { name: 'successful_count', label: 'Berhasil', id: 'result-success' },
  { name: 'failed_count', label: 'Gagal', id: 'result-failed' },
  { name: 'no_wa_count', label: 'Tidak Ada WA', id: 'result-no-wa' },
];

/** A count as typed: blank is 0 (SPEC); the shared schema checks the number it comes to. */
const countText = z.string().transform((text) => (text.trim() === '' ? 0 : Number(text.trim())));
const ResultFormSchema = viaForm(
  z
    .object({
      successful_count: countText,
      failed_count: countText,
      no_wa_count: countText,
      admin_notes: z.string(),
    })
    .transform((form) => ({ ...form, admin_notes: form.admin_notes.trim() || null })),
  BlastResultSchema,
);
type ResultForm = z.input<typeof ResultFormSchema>;

function CountFields(props: {
  register: UseFormRegister<ResultForm>;
  invalid: ReadonlySet<PropertyKey | undefined>;
  over: boolean;
  total: number;
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
            aria-invalid={props.over || props.invalid.has(name)}
            aria-describedby="result-sum"
            {...props.register(name)}
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

/**
 * A new result starts from the saved per-number statuses (pending ones successful); an edit
 * starts from the saved result and its notes.
 */
function startValues(blast: Blast): ResultForm {
  const start = resultFormCounts(blast);
  return {
    successful_count: String(start.successful_count),
    failed_count: String(start.failed_count),
    no_wa_count: String(start.no_wa_count),
    admin_notes: blast.status === 'completed' ? (blast.admin_notes ?? '') : '',
  };
}

/**
 * The form, and what its counts come to as typed, read through the same schema as the submit:
 * which fields are not whole numbers of 0 or more, the sum, the refund, whether it can be sent.
 */
function useResultForm(blast: Blast) {
  const total = blast.total_numbers;
  const form = useForm<ResultForm, unknown, BlastResultInput>({
    resolver: zodResolver(ResultFormSchema),
    defaultValues: startValues(blast),
  });
  const typed = ResultFormSchema.safeParse(useWatch({ control: form.control }));
  const invalid = new Set(typed.error?.issues.map((issue) => issue.path[0]));
  const allValid = typed.success;
  const counts = typed.data ?? { successful_count: 0, failed_count: 0, no_wa_count: 0 };
  const sum = counts.successful_count + counts.failed_count + counts.no_wa_count;
  const over = sum > total;
  const refund = counts.failed_count + counts.no_wa_count;
  return { form, invalid, allValid, sum, over, refund, canSubmit: allValid && !over && sum > 0 };
}

export function AdminBlastResultDialog({ blast, onClose }: { blast: Blast; onClose: () => void }) {
  const submit = useSubmitBlastResult();
  const total = blast.total_numbers;
  const editing = blast.status === 'completed';
  const { form, invalid, allValid, sum, over, refund, canSubmit } = useResultForm(blast);

  // The server refuses e.g. taking back a refund the client has already spent: the toast says why.
  const send = async (input: BlastResultInput) => {
    const sent = await runAction(() => submit.mutateAsync({ id: blast.id, input }), {
      done: 'Hasil blast berhasil disubmit',
      failed: 'Gagal submit hasil blast',
    });
    if (sent) onClose();
  };
  const onSubmit = form.handleSubmit(send, (errors) =>
    toastError(Object.values(errors)[0]?.message ?? 'Gagal submit hasil blast'),
  );
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
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
          <CountFields register={form.register} invalid={invalid} over={over} total={total} />
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
              {...form.register('admin_notes')}
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
