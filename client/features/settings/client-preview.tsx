// Pengaturan's preview of the client's top-up card, drawn from the values being typed.
import { Alert } from '#client/components/ui/alert.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import type { Settings } from '#common/settings.ts';
import { hasSavedQr, type QrFile } from './qr-file.tsx';
import { SavedQr } from './saved-qr.tsx';

export interface AccountDraft {
  bank_name?: string;
  account_number?: string;
  account_name?: string;
}

function AccountPreview({ account }: { account: AccountDraft }) {
  if (!account.account_number?.trim() || !account.account_name?.trim()) {
    return <Alert variant="warning">Informasi rekening belum tersedia</Alert>;
  }
  return (
    <dl className="grid gap-3 rounded-lg bg-muted p-4 text-sm">
      <div>
        <dt className="text-muted-foreground">Bank</dt>
        <dd className="font-semibold">{account.bank_name || '-'}</dd>
      </div>
      <div>
        <dt className="text-muted-foreground">Nomor Rekening</dt>
        <dd className="font-mono text-base font-semibold tracking-wide">
          {account.account_number}
        </dd>
      </div>
      <div>
        <dt className="text-muted-foreground">Atas Nama</dt>
        <dd className="font-semibold">{account.account_name}</dd>
      </div>
    </dl>
  );
}

const ALT = 'QR Code pembayaran (preview klien)';

function QrPreview({ qr, settings }: { qr: QrFile; settings: Settings }) {
  if (!qr.file && !hasSavedQr(settings)) return null;
  return (
    <div className="grid justify-items-center gap-2 text-center">
      {!qr.file ? (
        <SavedQr
          settings={settings}
          alt={ALT}
          failure={<span>QR Code tidak dapat ditampilkan</span>}
        />
      ) : qr.previewFailed ? (
        <p className="text-sm text-destructive">Preview tidak dapat dimuat</p>
      ) : (
        qr.previewUrl && (
          <img
            src={qr.previewUrl}
            alt={ALT}
            className="size-48 rounded-lg border bg-white object-contain p-2"
          />
        )
      )}
      <p className="text-xs text-muted-foreground">Scan QR Code untuk pembayaran digital</p>
    </div>
  );
}

export function ClientPreview(props: { account: AccountDraft; qr: QrFile; settings: Settings }) {
  return (
    <Card className="h-fit lg:sticky lg:top-24" data-client-preview="">
      <CardHeader>
        <CardDescription>Preview tampilan untuk klien</CardDescription>
        <CardTitle as="h2">Informasi Top-Up Poin</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <AccountPreview account={props.account} />
        <QrPreview qr={props.qr} settings={props.settings} />
      </CardContent>
    </Card>
  );
}
