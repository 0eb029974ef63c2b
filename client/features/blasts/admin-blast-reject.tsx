// The admin's reject confirmation for a pending blast: a manual blast's points all go back to the
// client; a blast Sebar sends stops, and the points of the numbers not sent go back.
import { sentByEngine } from '#common/blast-rules.ts';
import type { Blast } from '#common/blasts.ts';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import { runAction } from '#client/components/ui/toast.ts';
import { formatDateTime, formatNumber } from '#client/lib/format.ts';
import { useRejectBlast } from './admin-api.ts';

/** Open while `blast` is set; closes itself only on success, a failure stays open with a toast. */
export function RejectBlastDialog({
  blast,
  onClose,
}: {
  blast: Blast | null;
  onClose: () => void;
}) {
  const reject = useRejectBlast();

  const onReject = async () => {
    if (!blast) return;
    const rejected = await runAction(() => reject.mutateAsync(blast.id), {
      done: (closed) =>
        `Blast request berhasil ditolak. ${formatNumber(closed.refund_points)} poin dikembalikan ke ${blast.username}.`,
      failed: 'Gagal menolak blast request',
    });
    if (rejected) onClose();
  };

  return (
    <ConfirmDialog
      open={blast !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Tolak Blast Request"
      description={`Apakah Anda yakin ingin menolak blast request dari ${blast?.username ?? ''}${
        // Which of the client's blasts: its time and size, as the list shows them.
        blast
          ? ` (${formatDateTime(blast.created_at)}, ${formatNumber(blast.total_numbers)} nomor)`
          : ''
      }? ${
        blast && sentByEngine(blast.delivery_mode)
          ? 'Nomor yang belum dikirim tidak akan dikirim, dan poinnya dikembalikan ke klien. Nomor yang sudah dikirim tetap tercatat.'
          : `Semua ${formatNumber(blast?.points_used ?? 0)} poin akan dikembalikan ke klien.`
      }`}
      confirmLabel="Tolak"
      onConfirm={onReject}
      loading={reject.isPending}
    />
  );
}
