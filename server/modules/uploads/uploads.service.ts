// Uploads: recognised by their bytes, re-encoded within a pixel bound, stored under random names.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { IMAGE_MIME_TYPES, IMAGE_TYPE_MESSAGE } from '../../../common/settings.ts';
import { now, transact, type Db, type DbHandle } from '../../db/connection.ts';
import type { UploadsTable } from '../../db/schema.ts';
import { HttpError } from '../../plugins/errors.ts';
import { holdClient } from '../points/ledger.ts';
import type { FileStore } from './file-store.ts';

/** 40 megapixels: any real photo or QR code fits; a decompression bomb does not. */
export const MAX_PIXELS = 40_000_000;
export const UPLOAD_PATH = '/uploads/';
const NAME_PATTERN = /^[0-9a-f-]{36}\.(png|jpg|gif)$/;
const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
};

export const isUploadName = (name: string) => NAME_PATTERN.test(name);

// Loaded on the first upload: together they are a third of the server's memory at rest. libvips's
// operation cache is turned off: each image is worked on once, and the cache kept what a GIF had
// decoded after its answer (each 36-megapixel GIF left 140 MB more behind).
let libraries: Promise<[typeof import('file-type'), typeof import('sharp')]> | undefined;
const imageLibraries = () =>
  (libraries ??= Promise.all([import('file-type'), import('sharp')]).then((loaded) => {
    loaded[1].default.cache(false);
    return loaded;
  }));

/**
 * Images are re-encoded one at a time. A GIF is decoded whole, about 14 bytes a pixel while it
 * is decoded and written again: a 36-megapixel GIF of 25 KB took the server to about 590 MB, and
 * four sent at once to 2 GB. One at a time, the server's memory stays that of one.
 */
let lastReencode: Promise<unknown> = Promise.resolve();
export const reencodes = { running: 0, most: 0 };

function reencode(bytes: Buffer, mime: string): Promise<Buffer> {
  const run = async () => {
    reencodes.most = Math.max(reencodes.most, ++reencodes.running);
    try {
      return await reencodeNow(bytes, mime);
    } finally {
      reencodes.running -= 1;
    }
  };
  const result = lastReencode.then(run, run);
  lastReencode = result.catch(() => undefined);
  return result;
}

async function reencodeNow(bytes: Buffer, mime: string): Promise<Buffer> {
  const sharp = (await imageLibraries())[1].default;
  const image = sharp(bytes, {
    limitInputPixels: MAX_PIXELS,
    failOn: 'truncated',
    animated: mime === 'image/gif',
  });
  try {
    const meta = await image.metadata();
    if ((meta.width ?? 0) * (meta.pageHeight ?? meta.height ?? 0) > MAX_PIXELS)
      throw new Error('too large');
    if (mime === 'image/png') return await image.rotate().png().toBuffer();
    if (mime === 'image/jpeg') return await image.rotate().jpeg({ quality: 88 }).toBuffer();
    return await image.gif().toBuffer();
  } catch (error) {
    const message = String((error as Error).message ?? '');
    if (/pixel|too large/i.test(message)) throw new HttpError(422, 'Dimensi gambar terlalu besar');
    throw new HttpError(422, 'Gambar rusak atau tidak dapat dibaca');
  }
}

/** Checks, re-encodes and stores an image; answers its stored row. */
export async function storeImage(
  database: DbHandle,
  store: FileStore,
  bytes: Buffer,
  kind: UploadsTable['kind'],
  userId: string,
): Promise<UploadsTable> {
  const [{ fileTypeFromBuffer }] = await imageLibraries();
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !(IMAGE_MIME_TYPES as readonly string[]).includes(type.mime)) {
    throw new HttpError(422, IMAGE_TYPE_MESSAGE);
  }
  const clean = await reencode(bytes, type.mime);
  const row: UploadsTable = {
    name: `${crypto.randomUUID()}.${EXTENSIONS[type.mime]}`,
    kind,
    mime: type.mime,
    bytes: clean.length,
    user_id: userId,
    created_at: now(),
  };
  await store.put(row.name, clean);
  try {
    // Stored only while its owner exists: a client deleted during the upload (its deletion holds
    // the row first and removes the files it finds) would leave a file no one can remove.
    await transact(database, async (trx) => {
      await holdClient(database.engine, trx, userId);
      await trx.insertInto('uploads').values(row).execute();
    });
  } catch (error) {
    // No row will ever name the file: it goes too.
    await store.remove(row.name);
    throw error;
  }
  return row;
}

/** The stored file name a URL of ours points at, or null. */
export function uploadName(url: string | null | undefined): string | null {
  const name = url?.startsWith(UPLOAD_PATH) ? url.slice(UPLOAD_PATH.length) : '';
  return isUploadName(name) ? name : null;
}

/** The upload name a URL ends with, relative or absolute (the rule the QR fallback reads), or null. */
export function endingName(url: string | null | undefined): string | null {
  const name = url?.slice(url.lastIndexOf('/') + 1) ?? '';
  return isUploadName(name) ? name : null;
}

/** The stored upload a URL of ours points at, if any (of `kind`, and of `userId` when given). */
export async function findUpload(
  db: Db,
  url: string,
  kind?: UploadsTable['kind'],
  userId?: string,
) {
  const name = uploadName(url);
  if (!name) return undefined;
  let query = db.selectFrom('uploads').selectAll().where('name', '=', name);
  if (kind) query = query.where('kind', '=', kind);
  if (userId) query = query.where('user_id', '=', userId);
  return query.executeTakeFirst();
}

/** An upload nothing names is removed once it is this old (the blast form uploads as it sends). */
const UNUSED_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Removes the uploads older than a day that no blast and no payment setting names: the image of a
 * blast that was refused (too few points) or never sent, a QR uploaded and not saved. Answers
 * the names removed.
 */
export async function purgeUnusedUploads(
  database: DbHandle,
  store: FileStore,
  at = new Date(),
): Promise<string[]> {
  const cutoff = new Date(at.getTime() - UNUSED_UPLOAD_TTL_MS).toISOString();
  const gone = await transact(database, async (trx) => {
    const settings = await trx
      .selectFrom('settings')
      .select(['qr_code_file', 'barcode_url'])
      .where('id', '=', 1)
      .executeTakeFirst();
    // Named as the QR fallback reads it: any address ending in the file's name.
    const named = [settings?.qr_code_file, settings?.barcode_url].flatMap(
      (url) => endingName(url) ?? [],
    );
    let unused = trx
      .deleteFrom('uploads')
      .where('created_at', '<', cutoff)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('blasts')
              .select('id')
              .whereRef('image_url', '=', sql<string>`${sql.lit(UPLOAD_PATH)} || uploads.name`),
          ),
        ),
      );
    if (named.length > 0) unused = unused.where('name', 'not in', named);
    return unused.returning('name').execute();
  });
  const names = gone.map((row) => row.name);
  await removeFiles(store, names);
  return names;
}

/** Files no row names any more, removed after the rows' deletion committed. */
export async function removeFiles(store: FileStore, names: readonly string[]): Promise<void> {
  await Promise.all(names.map((name) => store.remove(name).catch(() => undefined)));
}

export const toDataUrl = (mime: string, bytes: Buffer) =>
  `data:${mime};base64,${bytes.toString('base64')}`;
