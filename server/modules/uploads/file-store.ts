// Where uploaded files live: local disk here; an S3-compatible bucket would implement the same.
import fs from 'node:fs/promises';
import path from 'node:path';

export interface FileStore {
  put(name: string, bytes: Buffer): Promise<void>;
  get(name: string): Promise<Buffer | null>;
  /** Removes a file; one already gone is no error. */
  remove(name: string): Promise<void>;
}

export function diskStore(dir: string): FileStore {
  return {
    async put(name, bytes) {
      await fs.mkdir(dir, { recursive: true });
      const file = path.join(dir, name);
      const handle = await fs.open(file, 'wx');
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
    },
    async get(name) {
      return fs.readFile(path.join(dir, path.basename(name))).catch(() => null);
    },
    async remove(name) {
      await fs.rm(path.join(dir, path.basename(name)), { force: true });
    },
  };
}
