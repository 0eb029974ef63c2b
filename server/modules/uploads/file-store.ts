// Where uploaded files live: local disk here; an S3-compatible bucket would implement the same.
import fs from 'node:fs/promises';
import path from 'node:path';

export interface FileStore {
  put(name: string, bytes: Buffer): Promise<void>;
  get(name: string): Promise<Buffer | null>;
  /** Removes a file; one already gone is no error. */
  remove(name: string): Promise<void>;
  /** Every stored file with the time it was last written (none when nothing was ever stored). */
  list(): Promise<{ name: string; modifiedAt: Date }[]>;
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
    async list() {
      const entries = await fs.readdir(dir, { withFileTypes: true }).catch((error) => {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      });
      const files = await Promise.all(
        entries
          .filter((entry) => entry.isFile())
          .map(async ({ name }) => {
            const stat = await fs.stat(path.join(dir, name)).catch(() => null);
            return stat && { name, modifiedAt: stat.mtime };
          }),
      );
      return files.filter((file) => file !== null);
    },
  };
}
