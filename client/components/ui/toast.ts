// The toast API in one import: toast(), toastError(), toastLoadError(), toastSuccess(), useToast(),
// runAction(), <Toaster/>.
export {
  dismissToast,
  toast,
  toastError,
  toastLoadError,
  toastSuccess,
  useToast,
  TOAST_DURATION,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY,
  type ToastOptions,
} from './use-toast.ts';
export { runAction } from './run-action.ts';
export { Toaster } from './toaster.tsx';
