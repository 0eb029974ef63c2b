// What shows instead of a screen that could not be shown: its code did not download (the network
// dropped, or a new version replaced the files the page knows of) or it failed while rendering.
// Without this React would unmount the whole app and leave a blank page.
import { TriangleAlert } from 'lucide-react';
import { Component, type ReactNode } from 'react';
import { Button } from './button.tsx';
import { EmptyState } from './empty-state.tsx';

export const LOAD_ERROR_TITLE = 'Halaman gagal dimuat';
export const LOAD_ERROR_TEXT = 'Periksa koneksi internet Anda, lalu muat ulang halaman.';

interface Props {
  children: ReactNode;
  className?: string;
  /** A new value shows `children` again after a failure (the shell's: the screen's path). */
  resetKey?: string;
}

/** Shows `children`, or the load error once any of them has thrown while rendering. */
export class LoadErrorBoundary extends Component<Props, { failed: boolean; resetKey?: string }> {
  override state = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: { resetKey?: string }) {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return <LoadError className={this.props.className} />;
  }
}

/** The load error itself: also what the router shows for a screen whose code did not come. */
export function LoadError({ className }: { className?: string }) {
  return (
    <div role="alert" className={className}>
      <EmptyState
        icon={TriangleAlert}
        title={LOAD_ERROR_TITLE}
        description={LOAD_ERROR_TEXT}
        // A reload also fetches the page anew: after an update it names the new files.
        action={<Button onClick={() => window.location.reload()}>Muat Ulang</Button>}
      />
    </div>
  );
}
