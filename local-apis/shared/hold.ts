// Answers a double keeps waiting (a `timeout` outcome), and their release when the double closes.

/** Waits `ms`, or less when the double closes first: `holds` keeps the release of each wait. */
export function hold(holds: Set<() => void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const release = () => {
      clearTimeout(timer);
      holds.delete(release);
      resolve();
    };
    const timer = setTimeout(release, ms);
    holds.add(release);
  });
}
