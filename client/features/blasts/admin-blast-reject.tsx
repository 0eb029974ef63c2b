// The admin's reject confirmation for a pending blast: every point goes back to the client.
import type { Blast } from '#common/blasts.ts';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import { toastError, toastSuccess } from '#client/components/ui/toast.ts';
import { failureText } from '#client/lib/api-client.ts';
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
    try {
      await reject.mutateAsync(blast.id);
      toastSuccess(
        `Blast request berhasil ditolak. ${formatNumber(blast.points_used)} poin dikembalikan ke ${blast.username}.`,
      );
      onClose();
    } catch (error) {
      toastError(failureText(error, 'Gagal menolak blast request'));
    }
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
