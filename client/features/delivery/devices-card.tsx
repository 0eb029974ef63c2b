// 'Perangkat' on Pengiriman: the gateway's WhatsApp numbers (one WAHA session each), each one's
// state as WhatsApp and Sebar see it, what it sent today against the daily limit, its pairing QR
// while it waits for a scan, and the actions on it. The list refreshes itself while a device is
// not yet working, so a scan shows as 'Terhubung' without a reload.
import { LogOut, Play, Plus, QrCode, RotateCcw, Smartphone, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Device } from '#common/delivery.ts';
import { formatNumber } from '#common/format.ts';
import { Alert } from '#client/components/ui/alert.tsx';
import { Badge, type BadgeProps } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { IconCard } from '#client/components/ui/card.tsx';
import { ConfirmDialog } from '#client/components/ui/confirm-dialog.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { runAction } from '#client/components/ui/toast.ts';
import { failureText } from '#client/lib/api-client.ts';
import { useAdminDelivery } from './admin-api.ts';
import {
  useAddDevice,
  useDeviceAction,
  useDeviceQr,
  useDevices,
  type DeviceActionName,
} from './devices-api.ts';

const STATUS: Record<Device['status'], { label: string; variant: BadgeProps['variant'] }> = {
  WORKING: { label: 'Terhubung', variant: 'success' },
  SCAN_QR_CODE: { label: 'Pindai QR', variant: 'warning' },
  STARTING: { label: 'Memulai', variant: 'secondary' },
  STOPPED: { label: 'Berhenti', variant: 'secondary' },
  FAILED: { label: 'Gagal', variant: 'destructive' },
};

/** The actions asked about first. */
type ConfirmedAction = 'logout' | 'remove';

const DONE: Record<DeviceActionName, string> = {
  logout: 'Perangkat dikeluarkan',
  start: 'Sesi perangkat dijalankan',
  resume: 'Perangkat dilanjutkan',
  remove: 'Perangkat dihapus',
};

function DeviceStatus({ device }: { device: Device }) {
  const { label, variant } = STATUS[device.status];
  return (
    <span className="flex flex-wrap items-center gap-1.5" data-device-status={device.status}>
      <Badge variant={variant}>{label}</Badge>
      {device.pause_reason && <Badge variant="destructive">Dijeda</Badge>}
    </span>
  );
}

function QrImage({ session }: { session: string }) {
  const qr = useDeviceQr(session, true);
  const url = qr.data;
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  if (qr.error)
    return <Alert variant="destructive">{failureText(qr.error, 'QR gagal dimuat')}</Alert>;
  if (!url) return <p className="text-sm text-muted-foreground">Memuat QR...</p>;
  return (
    <figure className="grid justify-items-center gap-2">
      <img
        src={url}
        // The QR and its caption come into view as they appear below the toggle.
        onLoad={(event) => event.currentTarget.parentElement?.scrollIntoView({ block: 'nearest' })}
        alt={`QR pemasangan ${session}`}
        className="size-56 rounded-md border bg-white p-2"
      />
      <figcaption className="text-center text-sm text-muted-foreground">
        Buka WhatsApp di ponsel &gt; Perangkat tertaut &gt; Tautkan perangkat, lalu pindai QR ini.
      </figcaption>
    </figure>
  );
}

/** The actions on one device, each said in a toast; `confirm` is the one waiting for a yes. */
function useDeviceActions(session: string) {
  const action = useDeviceAction();
  const [confirm, setConfirm] = useState<ConfirmedAction | null>(null);
  const run = async (name: DeviceActionName) => {
    await runAction(() => action.mutateAsync({ session, action: name }), {
      done: DONE[name],
      failed: 'Aksi perangkat gagal',
    });
    setConfirm(null);
  };
  return { run, busy: action.isPending, confirm, setConfirm };
}

type DeviceActions = ReturnType<typeof useDeviceActions>;

/** The device's session, its number and WhatsApp name, and its state. */
function DeviceHeading({ device }: { device: Device }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div className="grid min-w-0 gap-1">
        <span className="font-medium wrap-anywhere">{device.session}</span>
        <span className="text-sm text-muted-foreground">
          {device.phone ? `+${device.phone}` : 'Belum terhubung'}
          {device.push_name ? ` · ${device.push_name}` : ''}
        </span>
      </div>
      <DeviceStatus device={device} />
    </div>
  );
}

/** The buttons the device's state allows; logout and removal ask first. */
function DeviceButtons({
  device,
  actions,
  showQr,
  onToggleQr,
}: {
  device: Device;
  actions: DeviceActions;
  showQr: boolean;
  onToggleQr: () => void;
}) {
  const { run, busy, setConfirm } = actions;
  return (
    <div className="flex flex-wrap gap-2">
      {device.status === 'SCAN_QR_CODE' && (
        <Button variant="outline" size="sm" onClick={onToggleQr}>
          <QrCode aria-hidden />
          {showQr ? 'Sembunyikan QR' : 'Tampilkan QR'}
        </Button>
      )}
      {(device.status === 'STOPPED' || device.status === 'FAILED') && (
        <Button variant="outline" size="sm" disabled={busy} onClick={() => void run('start')}>
          <Play aria-hidden />
          Jalankan
        </Button>
      )}
      {device.pause_reason && (
        <Button variant="outline" size="sm" disabled={busy} onClick={() => void run('resume')}>
          <RotateCcw aria-hidden />
          Lanjutkan
        </Button>
      )}
      {device.status === 'WORKING' && (
        <Button variant="outline" size="sm" disabled={busy} onClick={() => setConfirm('logout')}>
          <LogOut aria-hidden />
          Keluarkan
        </Button>
      )}
      <Button variant="outline" size="sm" disabled={busy} onClick={() => setConfirm('remove')}>
        <Trash2 aria-hidden />
        Hapus
      </Button>
    </div>
  );
}

/** The question before a logout or a removal. */
function ConfirmDeviceAction({ session, actions }: { session: string; actions: DeviceActions }) {
  const { run, busy, confirm, setConfirm } = actions;
  return (
    <ConfirmDialog
      open={confirm !== null}
      onOpenChange={(open) => !open && setConfirm(null)}
      title={confirm === 'logout' ? 'Keluarkan perangkat?' : 'Hapus perangkat?'}
      description={
        confirm === 'logout'
          ? `Nomor di sesi ${session} dikeluarkan dari WhatsApp; pindai QR lagi untuk menyambung.`
          : `Sesi ${session} dihapus dari WAHA dan dari Sebar.`
      }
      confirmLabel={confirm === 'logout' ? 'Keluarkan' : 'Hapus'}
      loading={busy}
      onConfirm={() => confirm && void run(confirm)}
    />
  );
}

function DeviceRow({ device, dailyLimit }: { device: Device; dailyLimit: number }) {
  const actions = useDeviceActions(device.session);
  const [showQr, setShowQr] = useState(false);
  const scanning = device.status === 'SCAN_QR_CODE';
  return (
    <li className="grid gap-3 rounded-lg border p-4" data-device={device.session}>
      <DeviceHeading device={device} />
      {device.pause_reason && (
        <p className="text-sm text-destructive" data-pause-reason="">
          {device.pause_reason}
          {device.error_code ? ` (kode ${device.error_code})` : ''}
        </p>
      )}
      <p className="text-sm">
        Kiriman hari ini:{' '}
        <span className="font-medium">
          {formatNumber(device.sent_today)} / {formatNumber(dailyLimit)}
        </span>
      </p>
      <DeviceButtons
        device={device}
        actions={actions}
        showQr={showQr}
        onToggleQr={() => setShowQr((shown) => !shown)}
      />
      {/* Below its toggle, which stays where it was pressed. */}
      {scanning && showQr && <QrImage session={device.session} />}
      <ConfirmDeviceAction session={device.session} actions={actions} />
    </li>
  );
}

function AddDevice({ suggested }: { suggested: string | null }) {
  const add = useAddDevice();
  const input = useRef<HTMLInputElement>(null);
  // Null until the admin types: the settings' main session name is offered while no device has it.
  const [typed, setSession] = useState<string | null>(null);
  const session = typed ?? suggested ?? '';
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const added = await runAction(() => add.mutateAsync(session.trim()), {
      done: 'Perangkat ditambahkan: tampilkan QR lalu pindai dari ponsel',
      failed: 'Gagal menambah perangkat',
    });
    if (added) {
      setSession(null);
      // The emptied form disables its button: the keyboard goes on from the field, not the body.
      input.current?.focus();
    }
  };
  return (
    <form
      onSubmit={(event) => void submit(event)}
      aria-label="Tambah perangkat"
      className="flex flex-col gap-3 sm:flex-row sm:items-end"
    >
      <TextField
        id="device-session"
        ref={input}
        label="Nama Sesi Baru"
        placeholder="hp-cs-1"
        fieldClassName="sm:flex-1"
        value={session}
        onChange={(event) => setSession(event.target.value)}
      />
      <Button type="submit" loading={add.isPending} disabled={session.trim() === ''}>
        {!add.isPending && <Plus aria-hidden />}
        Tambah Perangkat
      </Button>
    </form>
  );
}

export function DevicesCard() {
  const devices = useDevices();
  const list = devices.data;
  // The settings' main session ('Nama Sesi Utama'), saved.
  const main = useAdminDelivery().data?.gateway.session ?? null;
  return (
    <IconCard
      icon={Smartphone}
      title="Perangkat"
      description="Nomor WhatsApp yang mengirim blast bergiliran. Simpan pengaturan gateway dulu, lalu tambah perangkat dan pindai QR-nya."
    >
      {list?.message && <Alert variant="warning">{list.message}</Alert>}
      {devices.error && (
        <Alert variant="destructive">{failureText(devices.error, 'Gagal memuat perangkat')}</Alert>
      )}
      {devices.isPending && <p className="text-sm text-muted-foreground">Memuat perangkat...</p>}
      {list && list.items.length === 0 && (
        <p className="text-sm text-muted-foreground">Belum ada perangkat.</p>
      )}
      {list && list.items.length > 0 && (
        <ul className="grid gap-3" aria-label="Daftar perangkat">
          {list.items.map((device) => (
            <DeviceRow key={device.session} device={device} dailyLimit={list.daily_limit} />
          ))}
        </ul>
      )}
      <AddDevice
        suggested={
          main && list && !list.items.some((device) => device.session === main) ? main : null
        }
      />
    </IconCard>
  );
}
