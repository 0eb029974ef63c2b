// Small helpers over arrays, for the server and the client alike.

/**
 * The items by `key`, each group in the items' order (`Map.groupBy`, which Node.js has from
 * version 21 on; this project still runs on Node 20).
 */
export function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
