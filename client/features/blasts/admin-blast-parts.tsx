// The parts of the admin's blast Detail dialog that both delivery modes show: request info,
// message and image, the outcome, and the status summary with its stacked bar.
import { ExternalLink } from 'lucide-react';
import { useMemo, type ReactNode } from 'react';
import { isClosed } from '#common/blast-rules.ts';
import type { Blast, BlastStatus, NumberStatus } from '#common/blasts.ts';
import { Badge, type BadgeProps } from '#client/components/ui/badge.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '#client/components/ui/dialog.tsx';
import { cn } from '#client/lib/cn.ts';
import { formatDateTime, formatNumber, percentDone } from '#client/lib/format.ts';
import { ADMIN_BLAST_STATUS_LABELS, ADMIN_NUMBER_STATUS_LABELS } from './admin-api.ts';
import { BlastImage } from './blast-image.tsx';
import { SpintaxNote } from './spintax-preview.tsx';

export const BLAST_STATUS_BADGE: Record<BlastStatus, BadgeProps['variant']> = {
  pending: 'warning',
  completed: 'success',
  rejected: 'destructive',
  cancelled: 'secondary',
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

export function InfoItem({
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
      <dd className="wrap-anywhere text-sm font-medium">{children}</dd>
    </div>
  );
}

/** Counts, processed total, progress and a stacked bar, from the statuses as they stand now. */
export function StatusSummary({ statuses }: { statuses: NumberStatus[] }) {
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

export function BlastInfo({ blast }: { blast: Blast }) {
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
        {blast.template && (
          <InfoItem label="Pengiriman" className="sm:col-span-2">
            <span className="break-normal [overflow-wrap:anywhere]">
              WhatsApp Cloud API · template {blast.template.name} ({blast.template.language})
            </span>
          </InfoItem>
        )}
      </dl>
    </section>
  );
}

export function BlastContent({ blast }: { blast: Blast }) {
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
        <SpintaxNote blast={blast} />
      </section>
      {blast.image_url && (
        <section aria-labelledby="blast-image-title" className="grid justify-items-start gap-2">
          <h3 id="blast-image-title" className="text-sm font-semibold">
            Gambar
          </h3>
          <BlastImage url={blast.image_url} className="max-h-64">
            <a
              href={blast.image_url}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
            >
              Buka gambar di tab baru
              <ExternalLink aria-hidden className="size-3.5" />
            </a>
          </BlastImage>
        </section>
      )}
    </>
  );
}

/** The submitted result of a completed blast, or why a closed one sent nothing. */
export function BlastOutcome({ blast }: { blast: Blast }) {
  if (isClosed(blast.status)) {
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
        {blast.delivery_mode === 'manual' && (
          <InfoItem label="Catatan Admin" className="col-span-3">
            <span className="whitespace-pre-wrap font-normal">{blast.admin_notes || '-'}</span>
          </InfoItem>
        )}
      </dl>
    </section>
  );
}

/** The dialog around a blast's detail; `onClose` when the admin closes it. */
export function BlastDetailShell({
  onClose,
  children,
}: {
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>Detail Blast Request</DialogTitle>
          <DialogDescription>
            Informasi lengkap blast, daftar nomor tujuan dan status per nomor.
          </DialogDescription>
        </DialogHeader>
        {children}
      </DialogContent>
    </Dialog>
  );
}
