// Form Blast's image (optional, or a template's required header image): the picker, refused at
// once when not an image or over 5 MB, and again when its bytes do not decode as one; the preview
// with name, size and remove. Focus follows the control that replaces the one used.
import { ImagePlus, LoaderCircle, Trash2 } from 'lucide-react';
import { useEffect, useEffectEvent, useState } from 'react';
import { formatMegabytes } from '#common/format.ts';
import { HEADER_IMAGE_TYPES, TEMPLATE_MESSAGES } from '#common/template-text.ts';
import {
  IMAGE_MIME_TYPES,
  IMAGE_SIZE_MESSAGE,
  IMAGE_TYPE_MESSAGE,
  MAX_IMAGE_BYTES,
} from '#common/upload-rules.ts';
import { Button } from '#client/components/ui/button.tsx';
import { toastError } from '#client/components/ui/toast.ts';
import { useDataUrl } from '#client/components/ui/use-data-url.ts';
import { cn } from '#client/lib/cn.ts';

const INPUT_ID = 'blast-image';
const REMOVE_ID = 'blast-image-remove';
const ERROR_ID = 'blast-image-error';

/** Why a chosen file cannot go with the blast, or null when it can. */
function imageRefusal(file: File, required: boolean): string | null {
  // accept="image/*" is only a hint to the file picker; the server takes PNG, JPG and GIF only.
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) return IMAGE_TYPE_MESSAGE;
  if (file.size > MAX_IMAGE_BYTES) return IMAGE_SIZE_MESSAGE;
  if (required && !HEADER_IMAGE_TYPES.includes(file.type)) return TEMPLATE_MESSAGES.imageType;
  return null;
}

/** Moves focus once React has drawn the control (the one used has just gone away). */
const focusSoon = (id: string) => requestAnimationFrame(() => document.getElementById(id)?.focus());

export interface BlastImageFieldProps {
  image: File | null;
  onImageChange: (image: File | null) => void;
  /** True while the image itself is on its way (the first step of a submit). */
  uploading: boolean;
  disabled: boolean;
  /** A template's header image: required, named so, and PNG or JPG (what Meta sends). */
  required?: boolean;
  /** The form's check that failed on submit (an image is required). */
  error?: string;
}

export function BlastImageField({
  image,
  onImageChange,
  uploading,
  disabled,
  required = false,
  error: formError,
}: BlastImageFieldProps) {
  const [refused, setRefused] = useState<string | null>(null);
  const error = refused ?? formError ?? null;
  const refuse = (refusal: string) => {
    setRefused(refusal);
    toastError(refusal, 'Error Upload Gambar');
  };
  const choose = (input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (!file) return;
    const refusal = imageRefusal(file, required);
    if (refusal) {
      // Refused before anything is sent; focus stays on the picker, which says why.
      input.value = '';
      return refuse(refusal);
    }
    setRefused(null);
    onImageChange(file);
    focusSoon(REMOVE_ID);
  };
  // A file named as an image whose bytes are none: the server would refuse it, and the blast would
  // go without it. It is taken back, and the picker says why.
  const undecodable = () => {
    onImageChange(null);
    refuse(IMAGE_TYPE_MESSAGE);
    focusSoon(INPUT_ID);
  };
  const remove = () => {
    onImageChange(null);
    focusSoon(INPUT_ID);
  };

  return (
    <div className="grid grid-cols-1 gap-2">
      <p
        className={cn(
          'text-sm font-medium',
          // As Field marks a required control: seen, not part of the name.
          required && "after:ml-0.5 after:text-destructive after:content-['*'_/_'']",
        )}
        id="blast-image-label"
      >
        {required ? 'Gambar Header' : 'Gambar (Opsional)'}
      </p>
      {image ? (
        <ImagePreview
          image={image}
          uploading={uploading}
          disabled={disabled}
          onRemove={remove}
          onUndecodable={undecodable}
        />
      ) : (
        <ImagePicker required={required} disabled={disabled} error={error} onChoose={choose} />
      )}
    </div>
  );
}

/** The file picker, with the kinds and size it takes and why the last choice was refused. */
function ImagePicker({
  required,
  disabled,
  error,
  onChoose,
}: {
  required: boolean;
  disabled: boolean;
  error: string | null;
  onChoose: (input: HTMLInputElement) => void;
}) {
  return (
    <div className="grid gap-2">
      <input
        id={INPUT_ID}
        type="file"
        accept="image/*"
        className="peer sr-only"
        aria-labelledby="blast-image-label"
        aria-describedby={error ? `blast-image-hint ${ERROR_ID}` : 'blast-image-hint'}
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        disabled={disabled}
        onChange={(event) => onChoose(event.currentTarget)}
      />
      <label
        htmlFor={INPUT_ID}
        className={cn(
          'flex cursor-pointer flex-col items-center gap-2 rounded-lg border-2 border-dashed border-input p-6 text-center transition-colors hover:border-primary hover:bg-primary-soft/40 peer-focus-visible:border-ring peer-focus-visible:ring-2 peer-focus-visible:ring-ring/30',
          error && 'border-destructive',
        )}
      >
        <ImagePlus aria-hidden className="size-8 text-muted-foreground" />
        <span className="text-sm font-medium">Klik untuk memilih gambar</span>
        <span id="blast-image-hint" className="text-xs text-muted-foreground">
          {required ? 'PNG, JPG hingga 5MB' : 'PNG, JPG, GIF hingga 5MB'}
        </span>
      </label>
      {error && (
        <p id={ERROR_ID} className="text-xs font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

type PreviewState =
  | { status: 'loading'; url: string | null }
  | { status: 'ready'; url: string }
  | { status: 'failed' };

/**
 * The image's preview: 'loading' while the file is read and decoded, 'ready' once the browser
 * has drawn it, 'failed' when it cannot be read or decoded. The outcome is kept per data URL.
 */
function usePreview(image: File) {
  const url = useDataUrl(image);
  const [decoded, setDecoded] = useState<{ url: string; ok: boolean } | null>(null);
  let preview: PreviewState;
  if (url === 'error') preview = { status: 'failed' };
  else if (url === null || decoded?.url !== url) preview = { status: 'loading', url };
  else preview = decoded.ok ? { status: 'ready', url } : { status: 'failed' };
  const settle = (ok: boolean) => {
    if (url !== null && url !== 'error') setDecoded({ url, ok });
  };
  return [preview, settle] as const;
}

function ImagePreview({
  image,
  uploading,
  disabled,
  onRemove,
  onUndecodable,
}: {
  image: File;
  uploading: boolean;
  disabled: boolean;
  onRemove: () => void;
  onUndecodable: () => void;
}) {
  const [preview, settle] = usePreview(image);
  const failed = preview.status === 'failed';
  const reportUndecodable = useEffectEvent(onUndecodable);
  useEffect(() => {
    if (failed) reportUndecodable();
  }, [failed]);
  return (
    <div
      className="flex flex-col gap-3 rounded-lg border p-3 sm:flex-row sm:items-center"
      data-image-preview=""
      data-preview-status={uploading ? 'uploading' : preview.status}
      aria-busy={preview.status === 'loading' || uploading || undefined}
    >
      <div className="relative grid h-40 w-full shrink-0 place-items-center overflow-hidden rounded-md bg-muted sm:w-40">
        {preview.status !== 'ready' && (
          <span className="grid justify-items-center gap-1 text-xs text-muted-foreground">
            <LoaderCircle aria-hidden className="size-6 animate-spin" />
            Memuat pratinjau...
          </span>
        )}
        {'url' in preview && preview.url && (
          <img
            src={preview.url}
            alt="Pratinjau gambar blast"
            onLoad={() => settle(true)}
            onError={() => settle(false)}
            className={cn(
              'absolute inset-0 size-full object-contain',
              preview.status === 'loading' && 'invisible',
            )}
          />
        )}
        {uploading && (
          <span
            role="status"
            className="absolute inset-0 grid place-content-center justify-items-center gap-1 bg-background/80 text-xs font-medium"
          >
            <LoaderCircle aria-hidden className="size-6 animate-spin text-primary" />
            Mengupload gambar...
          </span>
        )}
      </div>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium" title={image.name}>
          {image.name}
        </p>
        <p className="text-xs text-muted-foreground">{formatMegabytes(image.size)}</p>
      </div>
      <Button
        id={REMOVE_ID}
        variant="outline"
        size="sm"
        onClick={onRemove}
        disabled={disabled}
        className="self-start sm:self-center"
      >
        <Trash2 aria-hidden />
        Hapus gambar
      </Button>
    </div>
  );
}
