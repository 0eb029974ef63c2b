// The admin's Detail of a blast the engine sends (Cloud API or gateway): each number's delivery as the engine and WhatsApp
// report it, read again every few seconds while it is being sent. Results are not typed here:
// the server refuses them for a blast the engine delivers.
import { channelName, holdMessage } from '#common/blast-rules.ts';
import type { Blast } from '#common/blasts.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { formatDateTime, formatNumber } from '#client/lib/format.ts';
import { ADMIN_NUMBER_STATUS_LABELS, useAdminBlast } from './admin-api.ts';
import {
  BlastContent,
  BlastDetailShell,
  BlastInfo,
  BlastOutcome,
  StatusSummary,
} from './admin-blast-parts.tsx';
import { beingSent } from './live-refresh.ts';
import { DeliveryNumberList } from './number-delivery.tsx';

export function CloudApiBlastDetail({
  blast: row,
  onClose,
}: {
  blast: Blast;
  onClose: () => void;
}) {
  const detail = useAdminBlast(row.id);
  // The list's row until the detail is read, then the detail as it is read again.
  const blast = detail.data ?? row;
  return (
    <BlastDetailShell onClose={onClose}>
      <BlastInfo blast={blast} />
      <BlastContent blast={blast} />
      <BlastOutcome blast={blast} />
      <section aria-labelledby="blast-numbers-title" className="grid gap-3">
        <h3 id="blast-numbers-title" className="text-sm font-semibold">
          Nomor Tujuan ({formatNumber(blast.total_numbers)})
        </h3>
        <Alert variant="info" data-engine-note="">
          Hasil tiap nomor dicatat otomatis dari {channelName(blast.delivery_mode)}, tidak diinput
          manual.
          {beingSent(blast) && ' Halaman ini diperbarui otomatis selama blast dikirim.'}
        </Alert>
        {detail.data?.held_reason && (
          <Alert variant="warning" data-held-reason="">
            {holdMessage(
              { ...detail.data, held_reason: detail.data.held_reason },
              formatDateTime,
              'admin',
            )}
          </Alert>
        )}
        {/* A later read that fails keeps the numbers already shown. */}
        {detail.data ? (
          <>
            <DeliveryNumberList
              numbers={detail.data.numbers}
              statusLabels={ADMIN_NUMBER_STATUS_LABELS}
            />
            <StatusSummary statuses={detail.data.numbers.map((n) => n.status)} />
          </>
        ) : detail.isPending ? (
          <PageSpinner label="Memuat status pengiriman..." />
        ) : (
          <div className="grid justify-items-start gap-3">
            <Alert variant="destructive">Gagal memuat status pengiriman</Alert>
            <Button variant="outline" size="sm" onClick={() => void detail.refetch()}>
              Coba lagi
            </Button>
          </div>
        )}
      </section>
    </BlastDetailShell>
  );
}
