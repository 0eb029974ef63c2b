// useDataUrl: a chosen file read as a data URL, for an image preview.
import { useEffect, useState } from 'react';

/**
 * The file as a data URL (the server's CSP allows data: images, not blob:); null while it is
 * read (or when there is no file), 'error' when the browser cannot read it.
 */
export function useDataUrl(file: File | null): string | 'error' | null {
  const [read, setRead] = useState<{ file: File; url: string | 'error' } | null>(null);
  useEffect(() => {
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () =>
      setRead({ file, url: typeof reader.result === 'string' ? reader.result : 'error' });
    reader.onerror = () => setRead({ file, url: 'error' });
    reader.readAsDataURL(file);
    return () => reader.abort();
  }, [file]);
  return file && read?.file === file ? read.url : null;
}
