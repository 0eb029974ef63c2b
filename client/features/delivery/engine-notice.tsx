// On the admin dashboard: a line saying that Sebar's sending has stopped (the engine paused or
// stopped, or no gateway device ready while numbers wait), with the way to 'Pengiriman', where
// the queue card says why and how to go on. Nothing while sending goes or nothing waits.
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { Alert } from '#client/components/ui/alert.tsx';
import { formatNumber } from '#client/lib/format.ts';
import { useDeliveryQueue } from './queue-api.ts';

export function EngineNotice() {
  const queue = useDeliveryQueue().data;
  if (!queue) return null;
  const { engine, waiting } = queue;
  const halted = engine.state === 'paused' || engine.state === 'stopped';
  const noDevice = queue.gateway?.devices === 0 && waiting > 0;
  if (!halted && !noDevice) return null;
  const title = halted
    ? engine.state === 'stopped'
      ? 'Pengiriman berhenti'
      : 'Pengiriman dijeda'
    : 'Tidak ada perangkat yang siap mengirim';
  return (
    <Alert
      variant={engine.state === 'stopped' ? 'destructive' : 'warning'}
      title={title}
      data-engine-notice=""
    >
      <p>
        {halted ? `${engine.reason ?? 'Tanpa keterangan'}. ` : ''}
        {formatNumber(waiting)} nomor menunggu dikirim.{' '}
        <Link to="/delivery" className="inline-flex items-center gap-1 font-medium underline">
          Buka Pengiriman
          <ArrowRight aria-hidden className="size-4" />
        </Link>
      </p>
    </Alert>
  );
}
