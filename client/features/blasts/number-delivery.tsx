// An engine blast's numbers with their delivery, on both detail screens: the state as a badge
// (WhatsApp's ticks in words; a number that did not get through by its status, as the totals
// count it), the time it reached that state, the attempts and the reason.
import { Ban, Check, CheckCheck, CircleX, Clock, Send, type LucideIcon } from 'lucide-react';
import { NOT_SENT_LABEL, withdrawnUnsent } from '#common/blast-rules.ts';
import type { BlastNumber, NumberDelivery, NumberStatus } from '#common/blasts.ts';
import { DELIVERY_STATE_LABELS, type DeliveryState } from '#common/delivery-states.ts';
import { Badge, type BadgeProps } from '#client/components/ui/badge.tsx';
import { cn } from '#client/lib/cn.ts';
import { formatDateTime, formatNumber } from '#client/lib/format.ts';

const LOOK: Record<DeliveryState, { icon: LucideIcon; variant: BadgeProps['variant'] }> = {
  queued: { icon: Clock, variant: 'secondary' },
  sending: { icon: Send, variant: 'warning' },
  sent: { icon: Check, variant: 'success' },
  delivered: { icon: CheckCheck, variant: 'success' },
  read: { icon: CheckCheck, variant: 'success' },
  failed: { icon: CircleX, variant: 'destructive' },
};

/**
 * The number's delivery state as a badge. A failed one is named by its status in the screen's
 * words (Gagal, or No WA when the number has no WhatsApp), so the rows add up to the totals; one
 * withdrawn before it was sent (a cancel, a reject, an opt-out) reads 'Tidak dikirim'.
 */
function DeliveryStateBadge({
  delivery,
  status,
  statusLabels,
}: {
  delivery: NumberDelivery;
  status: NumberStatus;
  statusLabels: Record<NumberStatus, string>;
}) {
  const { state } = delivery;
  if (withdrawnUnsent(delivery)) {
    return (
      <Badge variant="secondary" data-delivery-state={state} data-withdrawn="">
        <Ban aria-hidden />
        {NOT_SENT_LABEL}
      </Badge>
    );
  }
  const { icon: Icon, variant } = LOOK[state];
  return (
    <Badge variant={variant} data-delivery-state={state}>
      <Icon aria-hidden className={cn(state === 'read' && 'text-sky-600 dark:text-sky-400')} />
      {state === 'failed' ? statusLabels[status] : DELIVERY_STATE_LABELS[state]}
    </Badge>
  );
}

/** When the number reached its state: waiting ones since they were queued. */
function stateTime(d: NumberDelivery): { prefix: string; at: string | null } {
  switch (d.state) {
    case 'queued':
    case 'sending':
      return { prefix: 'Masuk antrean ', at: d.queued_at };
    case 'sent':
      return { prefix: '', at: d.sent_at };
    case 'delivered':
      return { prefix: '', at: d.delivered_at };
    case 'read':
      return { prefix: '', at: d.read_at };
    case 'failed':
      return { prefix: '', at: d.failed_at };
  }
}

/**
 * The time, the attempts and the reason under a number. The reason shows while the number waits
 * (why it is tried again) or once it failed; a number that got through later keeps no old reason.
 */
function DeliveryNote({ delivery }: { delivery: NumberDelivery }) {
  const { prefix, at } = stateTime(delivery);
  const facts = [
    at ? `${prefix}${formatDateTime(at)}` : null,
    // One attempt is the normal case; only retries are worth a word.
    delivery.attempts > 1 ? `${formatNumber(delivery.attempts)} percobaan` : null,
  ].filter(Boolean);
  const reason =
    delivery.state === 'queued' || delivery.state === 'failed' ? delivery.reason : null;
  return (
    <>
      {facts.length > 0 && (
        <p className="col-start-2 col-end-4 text-xs text-muted-foreground" data-delivery-facts="">
          {facts.join(' · ')}
        </p>
      )}
      {reason && (
        <p
          className={cn(
            'col-start-2 col-end-4 text-xs',
            delivery.state === 'failed' && !withdrawnUnsent(delivery)
              ? 'text-destructive'
              : 'text-muted-foreground',
          )}
          data-delivery-reason=""
        >
          {reason}
        </p>
      )}
    </>
  );
}

/** How many of the numbers were withdrawn unsent: counted among the failed, said apart. */
export const withdrawnCount = (numbers: readonly BlastNumber[]): number =>
  numbers.filter((n) => withdrawnUnsent(n.delivery)).length;

/** '… tidak dikirim' under a failed count that holds withdrawn numbers; nothing otherwise. */
export function WithdrawnNote({ count, className }: { count: number; className?: string }) {
  if (count === 0) return null;
  return (
    <span className={cn('block text-xs font-normal', className)} data-withdrawn-count="">
      {formatNumber(count)} {NOT_SENT_LABEL.toLowerCase()}
    </span>
  );
}

/**
 * Every number of the blast with its delivery, in a list that scrolls at a bounded height;
 * `statusLabels` are the screen's names of a number's status.
 */
export function DeliveryNumberList({
  numbers,
  statusLabels,
}: {
  numbers: readonly BlastNumber[];
  statusLabels: Record<NumberStatus, string>;
}) {
  return (
    <ol
      className="max-h-72 divide-y overflow-y-auto rounded-lg border text-sm"
      aria-label="Status pengiriman per nomor"
      tabIndex={0}
      data-number-list=""
    >
      {numbers.map((n) => (
        <li
          key={n.index}
          className="grid grid-cols-[1.75rem_minmax(0,1fr)_auto] items-center gap-x-3 gap-y-0.5 px-3 py-2"
          data-number-row={n.index}
        >
          <span className="text-right text-xs text-muted-foreground">{n.index + 1}.</span>
          <span className="wrap-anywhere font-mono">{n.number}</span>
          {n.delivery ? (
            <DeliveryStateBadge
              delivery={n.delivery}
              status={n.status}
              statusLabels={statusLabels}
            />
          ) : (
            <span />
          )}
          {n.delivery && <DeliveryNote delivery={n.delivery} />}
        </li>
      ))}
    </ol>
  );
}
