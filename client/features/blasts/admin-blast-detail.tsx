// The admin's blast Detail dialog: request info, message, image, results, and the per-number
// status editor with its real-time summary (edits stay local until 'Simpan Perubahan'). A Cloud
// API blast shows each number's delivery instead, with no editor (admin-blast-delivery.tsx).
import { Pencil, RotateCcw, Save, X } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { neverSent, NOT_SENT_LABEL, sentByEngine } from '#common/blast-rules.ts';
import { NUMBER_STATUSES, type Blast, type NumberStatus } from '#common/blasts.ts';
import { Badge, type BadgeProps } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import { runAction, toast, toastSuccess } from '#client/components/ui/toast.ts';
import { errorMessage } from '#client/lib/api-client.ts';
import { cn } from '#client/lib/cn.ts';
import { formatNumber } from '#client/lib/format.ts';
import { ADMIN_NUMBER_STATUS_LABELS, useSaveNumberStatuses } from './admin-api.ts';
import { CloudApiBlastDetail } from './admin-blast-delivery.tsx';
import {
  BlastContent,
  BlastDetailShell,
  BlastInfo,
  BlastOutcome,
  StatusSummary,
} from './admin-blast-parts.tsx';

const NUMBER_BADGE: Record<NumberStatus, BadgeProps['variant']> = {
  pending: 'secondary',
  success: 'success',
  failed: 'destructive',
  no_wa: 'warning',
};

function NumberRow(props: {
  index: number;
  number: string;
  status: NumberStatus;
  /** Its blast was closed (rejected, cancelled) with it pending: it reads 'Tidak dikirim'. */
  notSent: boolean;
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
        <Badge variant={NUMBER_BADGE[status]}>
          {props.notSent ? NOT_SENT_LABEL : ADMIN_NUMBER_STATUS_LABELS[status]}
        </Badge>
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
            notSent={neverSent(blast.status, edits.statuses[index]!)}
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

/**
 * Closing the dialog (Escape, Tutup, a click outside) with statuses changed and not saved asks
 * first: up to 500 numbers' work is not lost to a stray key.
 */
function UnsavedStatusesGuard({
  changed,
  open,
  onStay,
  onLeave,
}: {
  changed: number;
  open: boolean;
  onStay: () => void;
  onLeave: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => !next && onStay()}
      title="Perubahan belum disimpan"
      description={`${formatNumber(changed)} nomor diubah dan belum disimpan. Tutup tanpa menyimpan?`}
      confirmLabel="Tutup tanpa menyimpan"
      cancelLabel="Tetap di sini"
      variant="default"
      onConfirm={onLeave}
    />
  );
}

export function AdminBlastDetailDialog({ blast, onClose }: { blast: Blast; onClose: () => void }) {
  return sentByEngine(blast.delivery_mode) ? (
    <CloudApiBlastDetail blast={blast} onClose={onClose} />
  ) : (
    <ManualBlastDetail blast={blast} onClose={onClose} />
  );
}

function ManualBlastDetail({ blast: initial, onClose }: { blast: Blast; onClose: () => void }) {
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
    await runAction(
      async () => {
        const saved = await saveStatuses.mutateAsync({
          id: blast.id,
          changes: Object.fromEntries(changed),
        });
        setBlast((previous) => ({ ...previous, ...saved }));
        edits.clear();
        setEditing(false);
        focusToggleAfterSave.current = true;
      },
      {
        done: `Status per nomor berhasil disimpan. ${changed.length} nomor diperbarui.`,
        failed: (error) => errorMessage(error, 'Gagal menyimpan status per nomor'),
      },
    );
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
  const [askingToLeave, setAskingToLeave] = useState(false);
  const close = () => {
    if (saving) return;
    if (editing && changed.length > 0) setAskingToLeave(true);
    else onClose();
  };

  return (
    <BlastDetailShell onClose={close}>
      <UnsavedStatusesGuard
        changed={changed.length}
        open={askingToLeave}
        onStay={() => setAskingToLeave(false)}
        onLeave={onClose}
      />
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
    </BlastDetailShell>
  );
}
