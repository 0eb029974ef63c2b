// The 'Aktif' switch of one template: only an approved template that Sebar can send can be offered
// to clients; an offered one can always be switched off.
import { APPROVED, type Template } from '#common/templates.ts';
import { Switch } from '#client/components/ui/switch.tsx';
import { runAction } from '#client/components/ui/toast.ts';
import { useSetTemplateEnabled } from './templates-api.ts';

export function TemplateSwitch({ template }: { template: Template }) {
  const save = useSetTemplateEnabled();
  const change = (enabled: boolean) =>
    runAction(() => save.mutateAsync({ id: template.id, enabled }), {
      done: enabled
        ? `Template ${template.name} diaktifkan untuk klien`
        : `Template ${template.name} dinonaktifkan`,
      failed: 'Gagal mengubah template',
    });
  const offerable = template.status === APPROVED && template.unsupported === null;
  return (
    <Switch
      aria-label={`Aktifkan template ${template.name}`}
      checked={template.enabled}
      disabled={!template.enabled && !offerable}
      // While its change is saved the switch keeps the focus (aria-disabled, not disabled) and
      // takes no other change.
      aria-disabled={save.isPending || undefined}
      onCheckedChange={(enabled) => !save.isPending && void change(enabled)}
    />
  );
}
