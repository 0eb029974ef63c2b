// RecordView: a screen's single record (the settings, the delivery settings) as it loads: a
// spinner, then the record, or the failure with 'Coba lagi'.
import type { ReactNode } from 'react';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { PageSpinner } from './spinner.tsx';

export interface RecordQuery<T> {
  data?: T;
  isPending: boolean;
  isError: boolean;
  refetch: () => unknown;
}

export function RecordView<T>({
  query,
  loading,
  failed,
  children,
}: {
  query: RecordQuery<T>;
  /** What the spinner says. */
  loading: string;
  /** What the failure says. */
  failed: string;
  children: (record: T) => ReactNode;
}) {
  if (query.isPending) return <PageSpinner label={loading} />;
  if (query.isError || query.data === undefined) {
    return (
      <div className="grid justify-items-start gap-3">
        <Alert variant="destructive">{failed}</Alert>
        <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
          Coba lagi
        </Button>
      </div>
    );
  }
  return children(query.data);
}
