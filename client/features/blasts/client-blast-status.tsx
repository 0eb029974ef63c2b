// How a blast's status and a number's status look to the client: icon, badge and label.
import { Ban, CircleCheck, CircleX, Clock, type LucideIcon } from 'lucide-react';
import { neverSent, NOT_SENT_LABEL } from '#common/blast-rules.ts';
import type { BlastStatus, NumberStatus } from '#common/blasts.ts';
import { Badge, type BadgeProps } from '#client/components/ui/badge.tsx';
import { CLIENT_BLAST_STATUS_LABELS, CLIENT_NUMBER_STATUS_LABELS } from './client-api.ts';

const BLAST_LOOK: Record<
  BlastStatus,
  { icon: LucideIcon; variant: BadgeProps['variant']; iconClass: string }
> = {
  pending: { icon: Clock, variant: 'warning', iconClass: 'text-warning' },
  completed: { icon: CircleCheck, variant: 'success', iconClass: 'text-primary' },
  rejected: { icon: CircleX, variant: 'destructive', iconClass: 'text-destructive' },
  cancelled: { icon: Ban, variant: 'secondary', iconClass: 'text-muted-foreground' },
};

/** The status icon plus its badge. */
export function BlastStatusBadge({ status }: { status: BlastStatus }) {
  const { icon: Icon, variant, iconClass } = BLAST_LOOK[status];
  return (
    <span className="inline-flex items-center gap-1.5" data-blast-status={status}>
      <Icon aria-hidden className={`size-4 shrink-0 ${iconClass}`} />
      <Badge variant={variant}>{CLIENT_BLAST_STATUS_LABELS[status]}</Badge>
    </span>
  );
}

const NUMBER_VARIANT: Record<NumberStatus, BadgeProps['variant']> = {
  pending: 'secondary',
  success: 'success',
  failed: 'destructive',
  no_wa: 'warning',
};

/** A number's status; one left pending in a closed blast reads 'Tidak dikirim'. */
export function NumberStatusBadge({
  status,
  blastStatus,
}: {
  status: NumberStatus;
  blastStatus: BlastStatus;
}) {
  return (
    <Badge variant={NUMBER_VARIANT[status]} data-number-status={status}>
      {neverSent(blastStatus, status) ? NOT_SENT_LABEL : CLIENT_NUMBER_STATUS_LABELS[status]}
    </Badge>
  );
}
