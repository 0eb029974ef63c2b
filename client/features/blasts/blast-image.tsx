// A blast's attached image in its detail (client and admin). When the file cannot be loaded (it was
// removed from the server) the detail says so instead of drawing a broken image.
import { ImageOff } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { cn } from '#client/lib/cn.ts';

export function BlastImage({
  url,
  className,
  children,
}: {
  url: string;
  className?: string;
  /** Shown after the image while it can be loaded (a link to open it). */
  children?: ReactNode;
}) {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <p
        className="flex items-center gap-2 rounded-lg border border-dashed p-3 text-sm text-muted-foreground"
        data-blast-image-missing=""
      >
        <ImageOff aria-hidden className="size-4 shrink-0" />
        Gambar tidak dapat dimuat: file tidak ditemukan di server Sebar.
      </p>
    );
  }
  return (
    <>
      <img
        src={url}
        alt="Gambar yang dilampirkan pada blast"
        onError={() => setFailed(true)}
        className={cn('rounded-lg border object-contain', className)}
      />
      {children}
    </>
  );
}
