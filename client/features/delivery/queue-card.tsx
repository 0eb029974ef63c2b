// 'Antrean Pengiriman' on Pengiriman: whether the engine sends (and why not, with 'Lanjutkan
// Pengiriman'), the last error Meta reported for the phone number, what waits and what is on its
// way, today's sends and failures by code, the rate against its limit and the daily recipient
// limit (in gateway mode: the devices' pacing, their daily limits and the sending hours). Read
// again every few seconds.
import { Activity, Play } from 'lucide-react';
import type { DeliveryQueue, EngineState } from '#common/delivery.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge, type BadgeProps } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { RecordView } from '#client/components/ui/record-view.tsx';
import { runAction } from '#client/components/ui/toast.ts';
import { cn } from '#client/lib/cn.ts';
import { formatDateTime, formatNumber } from '#client/lib/format.ts';
import { QueueFailures } from './queue-failures.tsx';
import { QUEUE_REFRESH_MS, useDeliveryQueue, useResumeEngine } from './queue-api.ts';

type Engine = DeliveryQueue['engine'];

const ENGINE_LOOK: Record<EngineState, { label: string; variant: BadgeProps['variant'] }> = {
  off: { label: 'Nonaktif', variant: 'secondary' },
  running: { label: 'Berjalan', variant: 'success' },
  paused: { label: 'Dijeda', variant: 'warning' },
  stopped: { label: 'Berhenti', variant: 'destructive' },
};

function ResumeButton() {
  const resume = useResumeEngine();
  const run = () =>
    runAction(() => resume.mutateAsync(), {
      done: 'Pengiriman dilanjutkan',
      failed: 'Gagal melanjutkan pengiriman',
    });
  return (
    <Button size="sm" className="w-fit" loading={resume.isPending} onClick={() => void run()}>
      {!resume.isPending && <Play aria-hidden />}
      Lanjutkan Pengiriman
    </Button>
  );
}

/** Why a paused or stopped engine does not send, until when, and the admin's way out. */
function HaltedEngine({ engine }: { engine: Engine }) {
  const stopped = engine.state === 'stopped';
  const code = engine.error_code === null ? '' : ` (kode ${engine.error_code})`;
  return (
    <Alert
      variant={stopped ? 'destructive' : 'warning'}
      title={stopped ? 'Pengiriman berhenti' : 'Pengiriman dijeda'}
      data-engine-halt=""
    >
      <div className="grid gap-2">
        <p>
          {engine.reason ?? 'Tanpa keterangan'}
          {code}.
        </p>
        <p>
          {engine.resume_at
            ? `Dilanjutkan otomatis ${formatDateTime(engine.resume_at)}, atau lanjutkan sekarang.`
            : stopped
              ? 'Perbaiki penyebabnya (misalnya access token di pengaturan), lalu lanjutkan.'
              : 'Pengiriman menunggu sampai admin melanjutkannya.'}
        </p>
        <ResumeButton />
      </div>
    </Alert>
  );
}

/** The last error Meta reported for the business phone number, whether or not it halted sending. */
function AccountWarning({ warning }: { warning: NonNullable<Engine['warning']> }) {
  return (
    <Alert variant="warning" title="Laporan terakhir dari Meta" data-engine-warning="">
      <p>
        {warning.meaning} (kode {warning.code}), {formatDateTime(warning.at)}.
      </p>
      {warning.title && <p className="text-muted-foreground">Pesan Meta: {warning.title}</p>}
    </Alert>
  );
}

function EngineStatus({ engine }: { engine: Engine }) {
  const { label, variant } = ENGINE_LOOK[engine.state];
  const halted = engine.state === 'paused' || engine.state === 'stopped';
  return (
    <div className="grid gap-3" data-engine-state={engine.state}>
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">Status pengiriman</span>
        <Badge variant={variant}>{label}</Badge>
        {engine.since && (
          <span className="text-muted-foreground">sejak {formatDateTime(engine.since)}</span>
        )}
      </p>
      {engine.state === 'off' && (
        <p className="text-sm text-muted-foreground">
          Mode manual: Sebar tidak mengirim blast sendiri. Pilih WhatsApp Cloud API atau WhatsApp
          Gateway (WAHA) agar blast dikirim otomatis.
        </p>
      )}
      {halted && <HaltedEngine engine={engine} />}
      {/* A warning that halted the engine is already said above. */}
      {engine.warning && !(halted && engine.warning.code === engine.error_code) && (
        <AccountWarning warning={engine.warning} />
      )}
    </div>
  );
}

const FIGURES = [
  ['waiting', 'Menunggu'],
  ['sending', 'Sedang Dikirim'],
  ['sent_today', 'Terkirim Hari Ini'],
  ['failed_today', 'Gagal Hari Ini'],
] as const;

function QueueFigures({ queue }: { queue: DeliveryQueue }) {
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
      {FIGURES.map(([key, label]) => (
        <div
          key={key}
          className={cn(
            'rounded-lg bg-muted p-3',
            key === 'failed_today' && queue[key] > 0 && 'bg-destructive-soft text-destructive',
          )}
          data-queue-figure={key}
        >
          <dt className="text-xs font-medium">{label}</dt>
          <dd className="text-xl font-bold">{formatNumber(queue[key])}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A figure against its limit, with a bar when there is a limit. */
function Meter(props: { label: string; hint: string; value: number; max: number | null }) {
  const { label, hint, value, max } = props;
  const text =
    max === null
      ? `${formatNumber(value)} · tanpa batas`
      : `${formatNumber(value)} / ${formatNumber(max)}`;
  const share = max ? Math.min(100, (value / max) * 100) : 0;
  return (
    <div className="grid gap-1.5" data-queue-meter={label}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
        <span className="font-medium">{label}</span>
        <span className="font-semibold">{text}</span>
      </div>
      {max !== null && (
        <div
          role="meter"
          aria-label={label}
          aria-valuemin={0}
          aria-valuemax={max}
          aria-valuenow={value}
          aria-valuetext={text}
          className="h-2 overflow-hidden rounded-full bg-muted"
        >
          <div
            className={cn('h-full', share >= 90 ? 'bg-amber-500' : 'bg-primary')}
            style={{ width: `${share}%` }}
          />
        </div>
      )}
      <p className="text-xs text-muted-foreground">{hint}</p>
    </div>
  );
}

/** The gateway's human pacing in place of a rate: gaps, today's sends per limit, the hours. */
function GatewayPacing({ pacing }: { pacing: NonNullable<DeliveryQueue['gateway']> }) {
  const { devices, min_delay_seconds: min, max_delay_seconds: max } = pacing;
  return (
    <div className="grid gap-4 sm:grid-cols-2" data-queue-gateway="">
      <div className="grid gap-1.5 text-sm" data-queue-pacing="">
        <p className="flex flex-wrap items-baseline justify-between gap-x-3">
          <span className="font-medium">Jeda Antar Pesan</span>
          <span className="font-semibold">
            {formatNumber(min)}–{formatNumber(max)} detik
          </span>
        </p>
        <p className="text-xs text-muted-foreground">
          Acak per perangkat, {formatNumber(devices)} perangkat siap mengirim.
        </p>
        <p
          className="flex flex-wrap items-center gap-2"
          data-queue-hours={pacing.open ? 'open' : 'closed'}
        >
          <span className="font-medium">Jam Kirim {pacing.sending_hours} WIB</span>
          <Badge variant={pacing.open ? 'success' : 'secondary'}>
            {pacing.open ? 'Buka' : 'Tutup'}
          </Badge>
          {!pacing.open && pacing.opens_at && (
            <span className="text-muted-foreground">
              dilanjutkan {formatDateTime(pacing.opens_at)}
            </span>
          )}
        </p>
      </div>
      <Meter
        label="Kiriman Perangkat Hari Ini"
        hint="Pesan yang dikirim perangkat siap hari ini, dibanding batas harian mereka."
        value={pacing.sent_today}
        max={pacing.daily_limit}
      />
    </div>
  );
}

function QueueBody({ queue }: { queue: DeliveryQueue }) {
  // Manual mode with nothing left of a Cloud API blast: the state says all there is.
  const idle = queue.mode === 'manual' && queue.waiting + queue.sending === 0;
  return (
    <div className="grid gap-5">
      <EngineStatus engine={queue.engine} />
      {queue.gateway?.devices === 0 && queue.waiting > 0 && (
        <Alert variant="warning" title="Tidak ada perangkat yang siap mengirim" data-no-device="">
          {formatNumber(queue.waiting)} nomor menunggu sampai ada perangkat yang terhubung dan tidak
          dijeda. Lihat kartu Perangkat di bawah.
        </Alert>
      )}
      {!idle && (
        <>
          <QueueFigures queue={queue} />
          {queue.gateway ? (
            <GatewayPacing pacing={queue.gateway} />
          ) : (
            <div className="grid gap-4 sm:grid-cols-2">
              <Meter
                label="Kecepatan (pesan/detik)"
                hint="Rata-rata 60 detik terakhir, dibanding batas pesan per detik."
                value={queue.rate.last_minute}
                max={queue.rate.limit}
              />
              <Meter
                label="Penerima 24 Jam Terakhir"
                hint="Penerima berbeda yang dikirimi, dibanding batas penerima harian."
                value={queue.daily.used}
                max={queue.daily.limit}
              />
            </div>
          )}
          <QueueFailures failures={queue.failures_today} />
        </>
      )}
    </div>
  );
}

export function QueueCard({ className }: { className?: string }) {
  const queue = useDeliveryQueue();
  return (
    <Card className={className} data-queue-card="">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Activity aria-hidden className="size-5 text-primary" />
          Antrean Pengiriman
        </CardTitle>
        <CardDescription>
          Diperbarui otomatis setiap {QUEUE_REFRESH_MS / 1000} detik. &quot;Hari ini&quot; menurut
          waktu Jakarta (WIB).
        </CardDescription>
      </CardHeader>
      <CardContent>
        <RecordView
          query={queue}
          loading="Memuat antrean pengiriman..."
          failed="Gagal memuat antrean pengiriman"
        >
          {(loaded) => <QueueBody queue={loaded} />}
        </RecordView>
      </CardContent>
    </Card>
  );
}
