// Work shared fairly between keys (users): at most `slots` tasks run at once, at most one per
// key, and the keys with work waiting take turns, so one key's queue never delays another's.

type Task = () => void;

export class FairQueue {
  readonly #slots: number;
  /** Keys with a task running. */
  readonly #running = new Set<string>();
  /** Waiting tasks per key, the keys in the order they are to be served (a Map keeps it). */
  readonly #waiting = new Map<string, Task[]>();

  constructor(slots: number) {
    this.#slots = slots;
  }

  /** Runs `work` when `key` has its turn; answers what it answers. */
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const task = () => {
        work()
          .then(resolve, reject)
          .finally(() => {
            this.#running.delete(key);
            // The key has just had its turn: its next task goes behind every key waiting now.
            const rest = this.#waiting.get(key);
            if (rest) {
              this.#waiting.delete(key);
              this.#waiting.set(key, rest);
            }
            this.#next();
          });
      };
      const queue = this.#waiting.get(key);
      if (queue) queue.push(task);
      else this.#waiting.set(key, [task]);
      this.#next();
    });
  }

  #next() {
    for (const [key, queue] of this.#waiting) {
      if (this.#running.size >= this.#slots) return;
      if (this.#running.has(key)) continue;
      const task = queue.shift()!;
      if (queue.length === 0) this.#waiting.delete(key);
      this.#running.add(key);
      task();
    }
  }
}
