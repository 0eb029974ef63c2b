// Work shared fairly between keys (users): at most `slots` tasks run at once, at most one per
// key, and the keys with work waiting take turns, so one key's queue never delays another's.

type Task = () => void;

export class FairQueue {
  readonly #slots: number;
  /** Keys with a task running. */
  readonly #running = new Set<string>();
  /** Waiting tasks per key; a Map keeps its keys in the order they last got a turn. */
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
      // The key goes to the back of the line: the others waiting are served before its next task.
      this.#waiting.delete(key);
      if (queue.length > 0) this.#waiting.set(key, queue);
      this.#running.add(key);
      task();
    }
  }
}
