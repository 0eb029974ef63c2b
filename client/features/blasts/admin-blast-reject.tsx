// The admin's reject confirmation for a pending blast: every point goes back to the client.
import type { Blast } from '#common/blasts.ts';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import { runAction } from '#client/components/ui/toast.ts';
import { formatNumber } from '#client/lib/format.ts';
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
      done: `Blast request berhasil ditolak. ${formatNumber(blast.points_used)} poin dikembalikan ke ${blast.username}.`,
      failed: 'Gagal menolak blast request',
    });
    if (rejected) onClose();
  };

  return (
    <ConfirmDialog
      open={blast !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Tolak Blast Request"
      description={`Apakah Anda yakin ingin menolak blast request dari ${blast?.username ?? ''}? Semua ${formatNumber(blast?.points_used ?? 0)} poin akan dikembalikan ke klien.`}
      confirmLabel="Tolak"
      onConfirm={onReject}
      loading={reject.isPending}
    />
  );
}
