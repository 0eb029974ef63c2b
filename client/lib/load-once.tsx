// Code loaded on demand, each download started once: a screen whose code is already here renders
// at once instead of suspending for a frame (React's use() reads a settled promise's status).
import { use, type ComponentType } from 'react';

/** The fields React's use() reads to take a settled promise's result without suspending. */
type Tracked<T> = Promise<T> & {
  status?: 'pending' | 'fulfilled' | 'rejected';
  value?: T;
  reason?: unknown;
};

const started = new Map<unknown, Tracked<unknown>>();

/**
 * Calls `load` the first time `key` (by default the function itself) is asked for and answers
 * that same promise ever after, marked with its status for React's use().
 */
export function loadOnce<T>(load: () => Promise<T>, key: unknown = load): Promise<T> {
  let promise = started.get(key) as Tracked<T> | undefined;
  if (!promise) {
    const tracked: Tracked<T> = load();
    tracked.status = 'pending';
    tracked.then(
      (value) => {
        tracked.status = 'fulfilled';
        tracked.value = value;
      },
      (reason: unknown) => {
        tracked.status = 'rejected';
        tracked.reason = reason;
      },
    );
    started.set(key, tracked);
    promise = tracked;
  }
  return promise;
}

export type ModuleLoad = () => Promise<{ default: ComponentType }>;

/** A component whose code is the default export of `load`: downloaded on first render. */
export function lazyComponent(load: ModuleLoad): ComponentType {
  return function LazyComponent() {
    const { default: Component } = use(loadOnce(load));
    return <Component />;
  };
}
