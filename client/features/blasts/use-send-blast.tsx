// Sending a checked blast: the image first (a failed upload sends the blast without it, SPEC; a
// template's header image is required, so its failed upload sends nothing), then one charge under
// one Idempotency-Key, a second submit in the same instant refused.
import { useRef, useState } from 'react';
import { toastError, toastSuccess } from '#client/components/ui/toast.ts';
import { errorMessage } from '#client/lib/api-client.ts';
import { newIdempotencyKey } from '#client/lib/idempotency-key.ts';
import type { Blast, CreateBlast } from '#common/blasts.ts';
import { OPT_OUT_MESSAGES } from '#common/opt-out-rules.ts';
import type { BlastToSend } from './blast-form-rules.ts';
import { uploadBlastImage, useCreateBlast } from './client-api.ts';
import type { TemplateBlastToSend } from './template-blast-rules.ts';

/** The image's URL, or why it was left out (the server's reason, or ''). */
type Uploaded = { url: string } | { dropped: string };

/** What the blast carries besides its numbers and image: a message, or a template's values. */
function contentOf(blast: BlastToSend | TemplateBlastToSend) {
  if ('template_id' in blast)
    return { template_id: blast.template_id, parameters: blast.parameters } as const;
  return { message: blast.message };
}

/**
 * The image's upload, the first step of a send. A required image that fails is said at once: the
 * blast is not sent.
 */
function useImageUpload() {
  // True only while the image itself is on its way.
  const [uploading, setUploading] = useState(false);
  const upload = async (image: File, required: boolean): Promise<Uploaded> => {
    setUploading(true);
    try {
      return { url: (await uploadBlastImage(image)).url };
    } catch (failure) {
      console.error('Upload gambar gagal:', failure);
      const reason = errorMessage(failure, '');
      toastError(
        required
          ? `Gagal mengupload gambar header. Blast belum dikirim.${reason && ` ${reason}`}`
          : 'Gagal mengupload gambar. Blast akan dikirim tanpa gambar.',
        'Error Upload Gambar',
      );
      return { dropped: reason };
    } finally {
      setUploading(false);
    }
  };
  return { upload, uploading };
}

/**
 * The success toast's text. One toast at a time: the success replaces the upload error, so it
 * repeats that fact.
 */
function BlastCreated({ blast, uploaded }: { blast: Blast; uploaded: Uploaded | null }) {
  return (
    <>
      <span className="block">Blast request berhasil dibuat untuk {blast.total_numbers} nomor</span>
      {blast.opted_out_count > 0 && (
        <span className="block" data-opt-out-notice="">
          {OPT_OUT_MESSAGES.notice(blast.opted_out_count)}
        </span>
      )}
      {uploaded && 'dropped' in uploaded && (
        <span className="block">
          Gambar tidak ikut terkirim.{uploaded.dropped && ` ${uploaded.dropped}`}
        </span>
      )}
    </>
  );
}

export function useSendBlast() {
  const createBlast = useCreateBlast();
  const { upload, uploading } = useImageUpload();
  const [sending, setSending] = useState(false);
  // Set synchronously, so a second click in the same instant is refused.
  const sendingRef = useRef(false);

  /** Sends the blast; true when it was created (its success toast shown). */
  const send = async (toSend: BlastToSend | TemplateBlastToSend): Promise<boolean> => {
    if (sendingRef.current) return false;
    sendingRef.current = true;
    setSending(true);
    const idempotencyKey = newIdempotencyKey();
    const { numbers, image } = toSend;
    const imageRequired = 'template_id' in toSend;
    try {
      const uploaded = image ? await upload(image, imageRequired) : null;
      if (imageRequired && uploaded && 'dropped' in uploaded) return false;
      const imageUrl = uploaded && 'url' in uploaded ? uploaded.url : null;
      const input: CreateBlast = {
        ...contentOf(toSend),
        target_numbers: numbers,
        image_url: imageUrl,
      };
      const blast = await createBlast.mutateAsync({ input, idempotencyKey });
      toastSuccess(<BlastCreated blast={blast} uploaded={uploaded} />);
      return true;
    } catch (failure) {
      toastError(errorMessage(failure, 'Gagal membuat blast request'));
      return false;
    } finally {
      sendingRef.current = false;
      setSending(false);
    }
  };

  return { send, sending, uploading };
}
