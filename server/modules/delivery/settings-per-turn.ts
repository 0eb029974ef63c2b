// The webhooks that arrive together check their signatures against one read of the settings
// (decision 229), as the token checks of one turn share their reads (decision 161).
import DataLoader from 'dataloader';

/**
 * `read`, shared by the calls made in one event-loop turn (after the sockets that were ready
 * together are read). Nothing is kept: each turn reads afresh, so a change saved by this or
 * another instance counts from the next turn on.
 */
export function settingsPerTurn<T>(read: () => Promise<T>): () => Promise<T> {
  const loader = new DataLoader<'settings', T>(
    async (calls) => {
      const settings = await read();
      return calls.map(() => settings);
    },
    { cache: false, batchScheduleFn: (load) => setImmediate(load) },
  );
  return () => loader.load('settings');
}
