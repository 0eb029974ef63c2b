// Daftar Harga (/pricing): the price tiers clients top up against, with an inline add/edit form.
import { Info, Plus } from 'lucide-react';
import { useRef } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import {
  computePrice,
  exampleTotal,
  PricingTierInputSchema,
  type PricingTier,
  type PricingTierInput,
} from '#common/pricing.ts';
import { z } from '#common/zod.ts';
import { Button } from '#client/components/ui/button.tsx';
import { DataTable, type DataTableColumn } from '#client/components/ui/data-table.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import {
  InlineEditorCard,
  RowEditActions,
  useInlineEditor,
} from '#client/components/ui/inline-editor.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { TextField } from '#client/components/ui/text-field.tsx';
import { useAdminPricing, useDeleteTier, useSaveTier } from '#client/features/pricing/admin-api.ts';
import { formatDate, formatNumber, formatRupiah } from '#client/lib/format.ts';
import { useLoadErrorToast } from '#client/app/admin/feedback.ts';
import { toNumber, viaForm } from '#client/lib/form-schema.ts';

/** The worked example SPEC asks the form to show. */
const EXAMPLE = { min_points: 1, max_points: 100, price_per_point: 600 };

// A price may have decimals (SPEC: decimal, IDR); whole prices show like every other amount.
const priceFormat = new Intl.NumberFormat('id-ID', {
  style: 'currency',
  currency: 'IDR',
  minimumFractionDigits: 0,
  maximumFractionDigits: 2,
});
const formatPrice = (value: number) => priceFormat.format(value).replace(/\s/g, '');

const required = (message: string) => z.string().trim().min(1, message);
const TierFormSchema = viaForm(
  z
    .object({
      tier_name: required('Nama tier harus diisi'),
      min_points: required('Minimum poin harus diisi'),
      max_points: required('Maksimum poin harus diisi'),
      price_per_point: required('Harga per poin harus diisi'),
    })
    .transform((form) => ({
      tier_name: form.tier_name,
      min_points: toNumber(form.min_points),
      max_points: toNumber(form.max_points),
      price_per_point: toNumber(form.price_per_point),
    })),
  PricingTierInputSchema,
);
type TierForm = z.input<typeof TierFormSchema>;
const EMPTY_FORM: TierForm = { tier_name: '', min_points: '', max_points: '', price_per_point: '' };

const toForm = (tier: PricingTier): TierForm => ({
  tier_name: tier.tier_name,
  min_points: String(tier.min_points),
  max_points: String(tier.max_points),
  price_per_point: String(tier.price_per_point),
});

function tierColumns(
  onEdit: (tier: PricingTier) => void,
  onDelete: (tier: PricingTier) => void,
  deleting: boolean,
): DataTableColumn<PricingTier>[] {
  return [
    {
      key: 'name',
      header: 'Nama Tier',
      cell: (t) => <span className="font-medium">{t.tier_name}</span>,
    },
    {
      key: 'range',
      header: 'Range Poin',
      cell: (t) => `${formatNumber(t.min_points)} - ${formatNumber(t.max_points)} poin`,
      className: 'whitespace-nowrap',
    },
    {
      key: 'price',
      header: 'Harga Per Poin',
      cell: (t) => formatPrice(t.price_per_point),
      className: 'whitespace-nowrap',
    },
    {
      key: 'example',
      header: 'Contoh Total',
      cell: (t) => (
        <span>
          <span className="font-medium">{formatRupiah(exampleTotal(t))}</span>
          <span className="block text-xs text-muted-foreground">
            {formatNumber(t.max_points)} poin
          </span>
        </span>
      ),
      className: 'whitespace-nowrap',
    },
    {
      key: 'created',
      header: 'Tanggal Dibuat',
      cell: (t) => formatDate(t.created_at),
      className: 'whitespace-nowrap',
    },
    {
      key: 'actions',
      header: 'Aksi',
      className: 'w-28 text-right',
      cell: (t) => (
        <RowEditActions
          editLabel={`Edit tier ${t.tier_name}`}
          deleteLabel={`Hapus tier ${t.tier_name}`}
          onEdit={() => onEdit(t)}
          onDelete={() => void onDelete(t)}
          deleting={deleting}
        />
      ),
    },
  ];
}

type NumberName = 'min_points' | 'max_points' | 'price_per_point';
const NUMBER_FIELDS: {
  name: NumberName;
  label: string;
  placeholder: string;
  step: string;
  min: string;
}[] = [
  { name: 'min_points', label: 'Minimum Poin', placeholder: 'Contoh: 1', step: '1', min: '1' },
  { name: 'max_points', label: 'Maksimum Poin', placeholder: 'Contoh: 100', step: '1', min: '1' },
  {
    name: 'price_per_point',
    label: 'Harga Per Poin (Rp)',
    placeholder: 'Contoh: 600',
    step: 'any',
    min: '0',
  },
];

function TierFields({ form }: { form: UseFormReturn<TierForm, unknown, PricingTierInput> }) {
  const { errors } = form.formState;
  return (
    <>
      <div className="grid items-start gap-4 md:grid-cols-3">
        <TextField
          fieldClassName="md:col-span-3"
          id="tier-name"
          label="Nama Tier"
          error={errors.tier_name?.message}
          required
          placeholder="Contoh: Paket Basic"
          autoComplete="off"
          {...form.register('tier_name')}
        />
        {NUMBER_FIELDS.map(({ name, label, placeholder, step, min }) => (
          <TextField
            key={name}
            id={`tier-${name.replaceAll('_', '-')}`}
            label={label}
            error={errors[name]?.message}
            required
            type="number"
            inputMode={step === '1' ? 'numeric' : 'decimal'}
            min={min}
            step={step}
            placeholder={placeholder}
            {...form.register(name)}
          />
        ))}
      </div>
      <div
        className="flex items-start gap-3 rounded-lg border border-sky-200 bg-sky-50 p-3 text-sm text-sky-900"
        data-pricing-example=""
      >
        <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
        <p>
          <span className="font-semibold">Contoh:</span> range {EXAMPLE.min_points}-
          {EXAMPLE.max_points} poin dengan harga {formatRupiah(EXAMPLE.price_per_point)} per poin:
          50 poin = {formatRupiah(computePrice(50, [EXAMPLE]))}, 100 poin ={' '}
          {formatRupiah(computePrice(100, [EXAMPLE]))}.
        </p>
      </div>
    </>
  );
}

export default function AdminPricingPage() {
  const tiers = useAdminPricing();
  const save = useSaveTier();
  const remove = useDeleteTier();
  useLoadErrorToast(tiers, 'Gagal memuat daftar harga');
  const addButton = useRef<HTMLButtonElement>(null);
  const editor = useInlineEditor({
    schema: TierFormSchema,
    empty: EMPTY_FORM,
    toForm,
    firstField: 'tier_name',
    addButton,
    save: (id, input: PricingTierInput) => save.mutateAsync({ id, input }),
    remove: (id) => remove.mutateAsync(id),
    messages: {
      added: 'Tier harga berhasil ditambahkan',
      updated: 'Tier harga berhasil diperbarui',
      addFailed: 'Gagal menambahkan tier harga',
      updateFailed: 'Gagal memperbarui tier harga',
      confirmDelete: 'Apakah Anda yakin ingin menghapus tier harga ini?',
      deleted: 'Tier harga berhasil dihapus',
      deleteFailed: 'Gagal menghapus tier harga',
    },
  });

  return (
    <div>
      <PageHeader
        title="Daftar Harga Poin"
        description="Atur tier harga per poin yang dipakai untuk menghitung harga top-up klien."
        actions={
          <Button ref={addButton} onClick={editor.openAdd}>
            <Plus aria-hidden />
            Tambah Tier Harga
          </Button>
        }
      />
      {editor.editing !== null && (
        <InlineEditorCard
          adding={editor.editing === 'new'}
          title={{ add: 'Tambah Tier Harga', edit: 'Edit Tier Harga' }}
          label={{ add: 'Tambah tier harga', edit: 'Edit tier harga' }}
          saving={save.isPending}
          onSubmit={editor.onSubmit}
          onCancel={editor.close}
        >
          <TierFields form={editor.form} />
        </InlineEditorCard>
      )}
      <DataTable
        stacked
        label="Daftar tier harga poin"
        columns={tierColumns(editor.openEdit, (t) => void editor.onDelete(t), remove.isPending)}
        rows={tiers.data}
        rowKey={(t) => t.id}
        loading={tiers.isPending}
        error={tiers.isError}
        errorText="Gagal memuat daftar harga"
        onRetry={() => void tiers.refetch()}
        empty={<EmptyState title="Belum ada tier harga yang ditambahkan" />}
      />
    </div>
  );
}
