// Form Blast's submit button: its label while sending; in Cloud API mode it can also be blocked,
// with the reason beside it.
import { Send } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';

export function SendButton({
  sending,
  disabled,
  describedBy,
}: {
  sending: boolean;
  disabled?: boolean;
  describedBy?: string;
}) {
  return (
    <Button
      type="submit"
      size="lg"
      className="w-full"
      loading={sending}
      disabled={disabled}
      aria-describedby={describedBy}
    >
      {!sending && <Send aria-hidden />}
      {sending ? 'Memproses Blast...' : 'KIRIM BLAST REQUEST'}
    </Button>
  );
}
