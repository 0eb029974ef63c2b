// The client's blast detail dialog: facts, message, each number's real status (a Cloud API
// blast's delivery as it happens), the progress summary, and the cancel action while pending.
import type { ReactNode } from 'react';
import { useState } from 'react';
import { channelName, holdMessage, sentByEngine } from '#common/blast-rules.ts';
import type { Blast, BlastDetail, NumberStatus } from '#common/blasts.ts';
import { OPT_OUT_MESSAGES } from '#common/opt-out-rules.ts';
import { Button } from '#client/components/ui/button.tsx';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogClose,
} from '#client/components/ui/dialog.tsx';
import { Alert } from '#client/components/ui/alert.tsx';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { runAction } from '#client/components/ui/toast.ts';
import { errorMessage } from '#client/lib/api-client.ts';
import { cn } from '#client/lib/cn.ts';
import { formatDateTime, formatNumber, percentDone } from '#client/lib/format.ts';
import { CLIENT_NUMBER_STATUS_LABELS, useCancelBlast, useClientBlast } from './client-api.ts';
import { BlastStatusBadge, NumberStatusBadge } from './client-blast-status.tsx';
import { BlastImage } from './blast-image.tsx';
import { beingSent } from './live-refresh.ts';
import { SpintaxNote } from './spintax-preview.tsx';
import { DeliveryNumberList, WithdrawnNote, withdrawnCount } from './number-delivery.tsx';

export interface ClientBlastDetailProps {
  /** The blast shown; null closes the dialog. */
  blastId: string | null;
  onClose: () => void;
}

export function ClientBlastDetail({ blastId, onClose }: ClientBlastDetailProps) {
  const blast = useClientBlast(blastId);
  return (
    <Dialog open={blastId !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[80vh] max-w-2xl" data-blast-detail="">
        <DialogHeader>
          <DialogTitle>Detail Blast Request</DialogTitle>
          <DialogDescription>Informasi blast dan status setiap nomor tujuan.</DialogDescription>
        </DialogHeader>
        {blast.isPending ? (
          <PageSpinner label="Memuat detail blast..." />
        ) : blast.data ? (
          <DetailBody blast={blast.data} />
        ) : (
          <Alert variant="destructive">
            {errorMessage(blast.error, 'Gagal memuat detail blast')}
          </Alert>
        )}
      </DialogContent>
    </Dialog>
  );
}

function DetailBody({ blast }: { blast: BlastDetail }) {
  return (
    <>
      <BlastFacts blast={blast} />
      <BlastMessage blast={blast} />
      {sentByEngine(blast.delivery_mode) ? (
        <section className="grid gap-2">
          <h3 className="text-sm font-semibold">
            Nomor Tujuan ({formatNumber(blast.total_numbers)})
          </h3>
          <DeliveryNumberList numbers={blast.numbers} statusLabels={CLIENT_NUMBER_STATUS_LABELS} />
        </section>
      ) : (
        <BlastNumbers blast={blast} />
      )}
      <BlastProgress blast={blast} />
      <CancelBlastFooter blast={blast} />
    </>
  );
}

function BlastFacts({ blast }: { blast: BlastDetail }) {
  return (
    <>
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
        <Fact label="Tanggal">{formatDateTime(blast.created_at)}</Fact>
        <Fact label="Status">
          <BlastStatusBadge status={blast.status} />
        </Fact>
        <Fact label="Poin Terpakai">
          {formatNumber(blast.points_used)} poin
          {blast.refund_points > 0 && (
            <span className="block text-xs font-medium text-primary">
              +{formatNumber(blast.refund_points)} poin dikembalikan
            </span>
          )}
        </Fact>
      </dl>

      <dl className="grid grid-cols-2 gap-3 rounded-lg border p-3 text-sm sm:grid-cols-4">
        <Fact label="Total Nomor">
          {formatNumber(blast.total_numbers)}
          {blast.opted_out_count > 0 && (
            <span className="block text-xs font-normal text-muted-foreground">
              {OPT_OUT_MESSAGES.notice(blast.opted_out_count)}
            </span>
          )}
        </Fact>
        <Fact label="Berhasil">{formatNumber(blast.successful_count)}</Fact>
        <Fact label="Gagal">
          {formatNumber(blast.failed_count)}
          <WithdrawnNote count={withdrawnCount(blast.numbers)} className="text-muted-foreground" />
        </Fact>
        <Fact label="No WA">{formatNumber(blast.no_wa_count)}</Fact>
      </dl>
    </>
  );
}

function BlastMessage({ blast }: { blast: Blast }) {
  return (
    <section className="grid gap-2">
      <h3 className="text-sm font-semibold">Pesan</h3>
      <p className="whitespace-pre-wrap break-words rounded-lg bg-muted p-3 text-sm">
        {blast.message}
      </p>
      <SpintaxNote blast={blast} />
      {blast.image_url && <BlastImage url={blast.image_url} className="max-h-48 w-fit" />}
    </section>
  );
}

/** Each target number with its own delivery status (pending until the worker reports). */
function BlastNumbers({ blast }: { blast: Blast }) {
  const total = blast.total_numbers;
  const statusOf = (index: number): NumberStatus =>
    blast.number_statuses[String(index)] ?? 'pending';
  return (
    <section className="grid gap-2">
      <h3 className="text-sm font-semibold">Nomor Tujuan ({formatNumber(total)})</h3>
      <ol
        className="max-h-64 divide-y overflow-y-auto rounded-lg border text-sm"
        aria-label="Status per nomor"
        tabIndex={0}
        data-number-list=""
      >
        {blast.target_numbers.map((number, index) => (
          <li key={index} className="flex items-center gap-3 px-3 py-2">
            <span className="w-8 shrink-0 text-right text-xs text-muted-foreground">
              {index + 1}.
            </span>
            <span className="min-w-0 flex-1 wrap-anywhere font-mono">{number}</span>
            <NumberStatusBadge status={statusOf(index)} blastStatus={blast.status} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function BlastProgress({ blast }: { blast: BlastDetail }) {
  const pending = Math.max(
    0,
    blast.total_numbers - blast.successful_count - blast.failed_count - blast.no_wa_count,
  );
  return (
    <section className="grid gap-2">
      <h3 className="text-sm font-semibold">Ringkasan Proses</h3>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4" data-progress-summary="">
        <SummaryBox label="Berhasil" value={blast.successful_count} tone="success" />
        <SummaryBox label="Gagal" value={blast.failed_count} tone="destructive">
          <WithdrawnNote count={withdrawnCount(blast.numbers)} />
        </SummaryBox>
        <SummaryBox label="No WA" value={blast.no_wa_count} tone="warning" />
        <SummaryBox label="Pending" value={pending} tone="neutral" />
      </div>
      {sentByEngine(blast.delivery_mode) && <SendingProgress blast={blast} pending={pending} />}
    </section>
  );
}

/** An engine's blast: how far the sending is, and that the screen follows it by itself. */
function SendingProgress({ blast, pending }: { blast: BlastDetail; pending: number }) {
  const total = blast.total_numbers;
  return (
    <>
      <p className="text-xs text-muted-foreground" aria-live="polite" data-sending-progress="">
        {formatNumber(total - pending)} dari {formatNumber(total)} nomor selesai diproses (
        {percentDone(total - pending, total)}%)
        {beingSent(blast) &&
          ` · dikirim melalui ${channelName(blast.delivery_mode) ?? ''}, diperbarui otomatis`}
      </p>
      {blast.held_reason && (
        <p className="text-xs font-medium text-warning" data-held-reason="">
          {holdMessage({ ...blast, held_reason: blast.held_reason }, formatDateTime)}
        </p>
      )}
    </>
  );
}

/** Close, and while the blast is pending, a confirmed cancel that refunds every point. */
function CancelBlastFooter({ blast }: { blast: Blast }) {
  const cancel = useCancelBlast();
  const [confirming, setConfirming] = useState(false);
  const total = blast.total_numbers;

  const confirmCancel = async () => {
    await runAction(() => cancel.mutateAsync(blast.id), {
      done: (cancelled) =>
        `Blast berhasil dibatalkan. ${formatNumber(cancelled.refund_points)} poin dikembalikan.`,
      failed: (error) => errorMessage(error, 'Gagal membatalkan blast'),
    });
    setConfirming(false);
  };

  return (
    <>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Tutup</Button>
        </DialogClose>
        {blast.status === 'pending' && (
          <Button variant="destructive" onClick={() => setConfirming(true)}>
            Batalkan Blast
          </Button>
        )}
      </DialogFooter>

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Batalkan Blast?"
        description={
          sentByEngine(blast.delivery_mode)
            ? `Nomor yang belum dikirim dari blast ke ${formatNumber(total)} nomor ini tidak akan dikirim, dan poinnya dikembalikan ke saldo Anda. Nomor yang sudah dikirim tetap tercatat.`
            : `Blast ke ${formatNumber(total)} nomor ini akan dibatalkan dan ${formatNumber(blast.points_used)} poin dikembalikan ke saldo Anda.`
        }
        confirmLabel="Ya, Batalkan Blast"
        cancelLabel="Kembali"
        onConfirm={() => void confirmCancel()}
        loading={cancel.isPending}
      />
    </>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="font-semibold">{children}</dd>
    </div>
  );
}

const BOX_TONES = {
  success: 'bg-primary-soft text-primary',
  destructive: 'bg-destructive-soft text-destructive',
  warning: 'bg-warning-soft text-warning',
  neutral: 'bg-muted text-muted-foreground',
} as const;

function SummaryBox({
  label,
  value,
  tone,
  children,
}: {
  label: string;
  value: number;
  tone: keyof typeof BOX_TONES;
  children?: ReactNode;
}) {
  return (
    <div className={cn('rounded-lg p-3 text-center', BOX_TONES[tone])}>
      <p className="text-xl font-bold">{formatNumber(value)}</p>
      <p className="text-xs font-medium">{label}</p>
      {children}
    </div>
  );
}
