// The admin's blast Detail dialog: request info, message, image, results, and the per-number
// status editor with its real-time summary (edits stay local until 'Simpan Perubahan').
import { ExternalLink, Pencil, RotateCcw, Save, X } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import {
  NUMBER_STATUSES,
  type Blast,
  type BlastStatus,
  type NumberStatus,
} from '#common/blasts.ts';
import { Badge, type BadgeProps } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '#client/components/ui/dialog.tsx';
import { toast, toastError, toastSuccess } from '#client/components/ui/toast.ts';
import { errorMessage } from '#client/lib/api-client.ts';
import { cn } from '#client/lib/cn.ts';
import { formatDateTime, formatNumber, percentDone } from '#client/lib/format.ts';
import {
  ADMIN_BLAST_STATUS_LABELS,
  ADMIN_NUMBER_STATUS_LABELS,
  useSaveNumberStatuses,
} from './admin-api.ts';

export const BLAST_STATUS_BADGE: Record<BlastStatus, BadgeProps['variant']> = {
  pending: 'warning',
  completed: 'success',
  rejected: 'destructive',
  cancelled: 'secondary',
};

const NUMBER_BADGE: Record<NumberStatus, BadgeProps['variant']> = {
  pending: 'secondary',
  success: 'success',
  failed: 'destructive',
  no_wa: 'warning',
};

/** Colours of the summary boxes and the stacked bar, per number status. */
const TONE: Record<NumberStatus, { box: string; bar: string }> = {
  success: { box: 'bg-primary-soft text-primary', bar: 'bg-primary' },
  failed: { box: 'bg-destructive-soft text-destructive', bar: 'bg-destructive' },
  no_wa: { box: 'bg-warning-soft text-warning', bar: 'bg-amber-500' },
  pending: { box: 'bg-muted text-muted-foreground', bar: 'bg-muted-foreground/30' },
};
const SUMMARY_ORDER: NumberStatus[] = ['success', 'failed', 'no_wa', 'pending'];

export function BlastStatusBadge({ status }: { status: BlastStatus }) {
  return <Badge variant={BLAST_STATUS_BADGE[status]}>{ADMIN_BLAST_STATUS_LABELS[status]}</Badge>;
}

function InfoItem({
  label,
  children,
  className,
}: {
  label: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('min-w-0', className)}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="break-all text-sm font-medium">{children}</dd>
    </div>
  );
}

/** Counts, processed total, progress and a stacked bar, from the statuses as they stand now. */
function StatusSummary({ statuses }: { statuses: NumberStatus[] }) {
  const total = statuses.length;
  const counts = useMemo(() => {
    const result: Record<NumberStatus, number> = { pending: 0, success: 0, failed: 0, no_wa: 0 };
    for (const status of statuses) result[status] += 1;
    return result;
  }, [statuses]);
  const processed = total - counts.pending;
  const percent = percentDone(processed, total);
  const share = (n: number) => (total ? (n / total) * 100 : 0);

  return (
    <section aria-labelledby="status-summary-title" className="grid gap-3" data-status-summary="">
      <h3 id="status-summary-title" className="text-sm font-semibold">
        Ringkasan Status
      </h3>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {SUMMARY_ORDER.map((status) => (
          <div
            key={status}
            className={cn('rounded-lg p-3 text-center', TONE[status].box)}
            data-summary={status}
          >
            <dt className="text-xs font-medium">{ADMIN_NUMBER_STATUS_LABELS[status]}</dt>
            <dd className="text-xl font-bold">{formatNumber(counts[status])}</dd>
          </div>
        ))}
      </dl>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span data-processed="">
          Diproses: <strong>{formatNumber(processed)}</strong> dari {formatNumber(total)} nomor
        </span>
        <span data-progress="">
          Progress: <strong>{percent}%</strong>
        </span>
      </div>
      <div
        role="img"
        aria-label={`Berhasil ${counts.success}, gagal ${counts.failed}, tidak ada WA ${counts.no_wa}, menunggu ${counts.pending}`}
        className="flex h-3 w-full overflow-hidden rounded-full bg-muted"
      >
        {SUMMARY_ORDER.map((status) =>
          counts[status] > 0 ? (
            <div
              key={status}
              className={cn('h-full transition-[width]', TONE[status].bar)}
              style={{ width: `${share(counts[status])}%` }}
            />
          ) : null,
        )}
      </div>
    </section>
  );
}

function BlastInfo({ blast }: { blast: Blast }) {
  return (
    <section aria-labelledby="blast-info-title" className="grid gap-2">
      <h3 id="blast-info-title" className="text-sm font-semibold">
        Informasi Request
      </h3>
      <dl className="grid gap-3 rounded-lg bg-muted p-3 sm:grid-cols-2" data-blast-info="">
        <InfoItem label="Username">{blast.username}</InfoItem>
        <InfoItem label="User ID">
          <span className="font-mono text-xs">{blast.user_id}</span>
        </InfoItem>
        <InfoItem label="Request ID">
          <span className="font-mono text-xs">{blast.id}</span>
        </InfoItem>
        <InfoItem label="Status">
          <BlastStatusBadge status={blast.status} />
        </InfoItem>
        <InfoItem label="Tanggal">{formatDateTime(blast.created_at)}</InfoItem>
        <InfoItem label="Poin Terpakai">{formatNumber(blast.points_used)} poin</InfoItem>
      </dl>
    </section>
  );
}

function BlastContent({ blast }: { blast: Blast }) {
  return (
    <>
      <section aria-labelledby="blast-message-title" className="grid gap-2">
        <h3 id="blast-message-title" className="text-sm font-semibold">
          Pesan
        </h3>
        <p
          className="max-h-48 overflow-y-auto whitespace-pre-wrap break-words rounded-lg border p-3 text-sm"
          data-blast-message=""
        >
          {blast.message}
        </p>
      </section>
      {blast.image_url && (
        <section aria-labelledby="blast-image-title" className="grid justify-items-start gap-2">
          <h3 id="blast-image-title" className="text-sm font-semibold">
            Gambar
          </h3>
          <img
            src={blast.image_url}
            alt="Gambar yang dilampirkan pada blast"
            className="max-h-64 rounded-lg border object-contain"
          />
          <a
            href={blast.image_url}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
          >
            Buka gambar di tab baru
            <ExternalLink aria-hidden className="size-3.5" />
          </a>
        </section>
      )}
    </>
  );
}

/** The submitted result of a completed blast, or why a closed one sent nothing. */
function BlastOutcome({ blast }: { blast: Blast }) {
  if (blast.status === 'rejected' || blast.status === 'cancelled') {
    return (
      <p className="rounded-lg border border-destructive/30 bg-destructive-soft p-3 text-sm text-destructive">
        {blast.status === 'rejected'
          ? 'Blast ini ditolak admin.'
          : 'Blast ini dibatalkan oleh klien.'}{' '}
        {formatNumber(blast.refund_points)} poin telah dikembalikan ke klien.
      </p>
    );
  }
  if (blast.status !== 'completed') return null;
  return (
    <section aria-labelledby="blast-result-title" className="grid gap-2">
      <h3 id="blast-result-title" className="text-sm font-semibold">
        Hasil Blast
      </h3>
      <dl className="grid grid-cols-3 gap-3 rounded-lg border p-3" data-blast-result="">
        <InfoItem label="Berhasil">{formatNumber(blast.successful_count)}</InfoItem>
        <InfoItem label="Gagal">{formatNumber(blast.failed_count)}</InfoItem>
        <InfoItem label="Tidak ada WA">{formatNumber(blast.no_wa_count)}</InfoItem>
        {blast.refund_points > 0 && (
          <InfoItem label="Refund Poin" className="col-span-3">
            <span className="text-primary">
              {formatNumber(blast.refund_points)} poin dikembalikan
            </span>
          </InfoItem>
        )}
        <InfoItem label="Catatan Admin" className="col-span-3">
          <span className="whitespace-pre-wrap font-normal">{blast.admin_notes || '-'}</span>
        </InfoItem>
      </dl>
    </section>
  );
}

function NumberRow(props: {
  index: number;
  number: string;
  status: NumberStatus;
  changed: boolean;
  editing: boolean;
  onChange: (status: NumberStatus) => void;
}) {
  const { index, number, status } = props;
  return (
    <li
      className={cn(
        'flex items-center gap-2 px-3 py-2 text-sm sm:gap-3',
        props.changed && 'bg-warning-soft/60',
      )}
      data-number-row={index}
    >
      <span className="w-7 shrink-0 text-right text-xs text-muted-foreground">{index + 1}.</span>
      <span className="min-w-0 flex-1 truncate font-mono text-xs sm:text-sm">{number}</span>
      {props.editing ? (
        <select
          aria-label={`Status nomor ${index + 1} (${number})`}
          value={status}
          onChange={(event) => props.onChange(event.target.value as NumberStatus)}
          className="h-8 cursor-pointer rounded-md border border-input bg-card px-1.5 text-xs sm:px-2 sm:text-sm focus-visible:border-ring focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring/30"
        >
          {NUMBER_STATUSES.map((option) => (
            <option key={option} value={option}>
              {ADMIN_NUMBER_STATUS_LABELS[option]}
            </option>
          ))}
        </select>
      ) : (
        <Badge variant={NUMBER_BADGE[status]}>{ADMIN_NUMBER_STATUS_LABELS[status]}</Badge>
      )}
    </li>
  );
}

/** Local status edits over the saved ones: what each number shows, and which differ. */
function useStatusEdits(blast: Blast) {
  const [edits, setEdits] = useState<Record<number, NumberStatus>>({});
  const savedStatus = (index: number): NumberStatus =>
    blast.number_statuses[String(index)] ?? 'pending';
  const statuses = useMemo(
    () =>
      blast.target_numbers.map(
        (_, index) => edits[index] ?? blast.number_statuses[String(index)] ?? 'pending',
      ),
    [blast, edits],
  );
  const changed = Object.entries(edits).filter(
    ([index, status]) => status !== savedStatus(Number(index)),
  );
  return {
    statuses,
    changed,
    isChanged: (index: number) => edits[index] !== undefined && edits[index] !== savedStatus(index),
    set: (index: number, status: NumberStatus) =>
      setEdits((current) => ({ ...current, [index]: status })),
    clear: () => setEdits({}),
  };
}

function NumberList({
  blast,
  edits,
  editing,
}: {
  blast: Blast;
  edits: ReturnType<typeof useStatusEdits>;
  editing: boolean;
}) {
  const { changed } = edits;
  return (
    <>
      {editing && (
        <p className="text-xs text-muted-foreground" aria-live="polite">
          {changed.length > 0
            ? `${changed.length} nomor diubah, belum disimpan.`
            : 'Ubah status tiap nomor, lalu klik Simpan Perubahan.'}
        </p>
      )}
      <ol
        className="max-h-72 divide-y overflow-y-auto rounded-lg border"
        aria-label="Daftar nomor tujuan"
        data-number-list=""
      >
        {blast.target_numbers.map((number, index) => (
          <NumberRow
            key={index}
            index={index}
            number={number}
            status={edits.statuses[index]!}
            changed={edits.isChanged(index)}
            editing={editing}
            onChange={(status) => edits.set(index, status)}
          />
        ))}
      </ol>
    </>
  );
}

/** Reset and Simpan Perubahan while editing, and the Edit Status / Batal Edit toggle. */
function NumbersToolbar({
  editing,
  saving,
  toggleRef,
  onReset,
  onSave,
  onToggle,
}: {
  editing: boolean;
  saving: boolean;
  toggleRef: RefObject<HTMLButtonElement | null>;
  onReset: () => void;
  onSave: () => void;
  onToggle: () => void;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      {editing && (
        <>
          <Button size="sm" variant="outline" onClick={onReset} disabled={saving}>
            <RotateCcw aria-hidden />
            Reset
          </Button>
          <Button size="sm" onClick={onSave} loading={saving}>
            {!saving && <Save aria-hidden />}
            Simpan Perubahan
          </Button>
        </>
      )}
      <Button
        ref={toggleRef}
        size="sm"
        variant={editing ? 'secondary' : 'outline'}
        aria-pressed={editing}
        onClick={onToggle}
        disabled={saving}
      >
        {editing ? <X aria-hidden /> : <Pencil aria-hidden />}
        {editing ? 'Batal Edit' : 'Edit Status'}
      </Button>
    </div>
  );
}

/**
 * Saving or leaving edit mode removes the buttons that had the focus: it goes to the toggle, once
 * the toggle is enabled again (it is disabled while the save runs). Entering or leaving edit mode
 * moves the toggle (the buttons beside it come and go): a focused toggle is kept in view.
 */
function useToggleFocus(
  toggleRef: RefObject<HTMLButtonElement | null>,
  focusAfterSaveRef: RefObject<boolean>,
  editing: boolean,
  saving: boolean,
) {
  useEffect(() => {
    const toggle = toggleRef.current;
    if (!toggle || saving) return;
    if (focusAfterSaveRef.current) {
      focusAfterSaveRef.current = false;
      toggle.focus();
    } else if (document.activeElement === toggle) {
      toggle.scrollIntoView({ block: 'nearest' });
    }
  }, [toggleRef, focusAfterSaveRef, editing, saving]);
}

/** The target numbers with their statuses; `children` is the toolbar that edits them. */
function NumbersSection({
  blast,
  edits,
  editing,
  children,
}: {
  blast: Blast;
  edits: ReturnType<typeof useStatusEdits>;
  editing: boolean;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby="blast-numbers-title" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="blast-numbers-title" className="text-sm font-semibold">
          Nomor Tujuan ({formatNumber(blast.target_numbers.length)})
        </h3>
        {children}
      </div>
      <NumberList blast={blast} edits={edits} editing={editing} />
      <StatusSummary statuses={edits.statuses} />
    </section>
  );
}

export function AdminBlastDetailDialog({
  blast: initial,
  onClose,
}: {
  blast: Blast;
  onClose: () => void;
}) {
  const saveStatuses = useSaveNumberStatuses();
  /** The blast as last saved: the list's row, then each save's answer merged in. */
  const [blast, setBlast] = useState(initial);
  const [editing, setEditing] = useState(false);
  const edits = useStatusEdits(blast);
  const toggleButton = useRef<HTMLButtonElement>(null);
  const focusToggleAfterSave = useRef(false);
  useToggleFocus(toggleButton, focusToggleAfterSave, editing, saveStatuses.isPending);
  const editable = blast.status === 'pending' || blast.status === 'completed';
  const { changed } = edits;

  const onSave = async () => {
    if (changed.length === 0) {
      toast({ title: 'Info', description: 'Tidak ada perubahan status untuk disimpan' });
      return;
    }
    try {
      const saved = await saveStatuses.mutateAsync({
        id: blast.id,
        changes: Object.fromEntries(changed),
      });
      setBlast((previous) => ({ ...previous, ...saved }));
      edits.clear();
      setEditing(false);
      focusToggleAfterSave.current = true;
      toastSuccess(`Status per nomor berhasil disimpan. ${changed.length} nomor diperbarui.`);
    } catch (error) {
      toastError(errorMessage(error, 'Gagal menyimpan status per nomor'));
    }
  };
  const onReset = () => {
    edits.clear();
    toastSuccess('Status per nomor telah direset ke default');
  };
  const toggleEditing = () => {
    if (editing) edits.clear();
    setEditing(!editing);
  };
  const saving = saveStatuses.isPending;

  return (
    <Dialog open onOpenChange={(open) => !open && !saving && onClose()}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Detail Blast Request</DialogTitle>
          <DialogDescription>
            Informasi lengkap blast, daftar nomor tujuan dan status per nomor.
          </DialogDescription>
        </DialogHeader>
        <BlastInfo blast={blast} />
        <BlastContent blast={blast} />
        <BlastOutcome blast={blast} />
        <NumbersSection blast={blast} edits={edits} editing={editing}>
          {editable && (
            <NumbersToolbar
              editing={editing}
              saving={saving}
              toggleRef={toggleButton}
              onReset={onReset}
              onSave={onSave}
              onToggle={toggleEditing}
            />
          )}
        </NumbersSection>
      </DialogContent>
    </Dialog>
  );
}
