// Uploads: recognised by their bytes, re-encoded within a pixel bound, stored under random names.
import crypto from 'node:crypto';
import { sql, type ExpressionBuilder } from 'kysely';
import { IMAGE_MIME_TYPES, IMAGE_TYPE_MESSAGE } from '#common/settings.ts';
import { now, type Db, type DbHandle } from '#server/db/connection.ts';
import { forUpdate, transact } from '#server/db/transaction.ts';
import type { Database, UploadsTable } from '#server/db/schema.ts';
import { HttpError } from '#server/plugins/errors.ts';
import { holdClient } from '#server/modules/points/ledger.ts';
import { FairQueue } from './fair-queue.ts';
import type { FileStore } from './file-store.ts';

/**
 * Pixels an image may have once decoded, every frame of a GIF counted: 4096 x 4096, more than a
 * 16-megapixel phone photo. A GIF is decoded whole at about 14 bytes a pixel, so this bounds one
 * re-encode's memory and time; a larger image is refused from its header, before any decoding.
 */
export const MAX_PIXELS = 4096 * 4096;
export const IMAGES_OFF = 'Upload gambar untuk blast sedang tidak diizinkan';
export const PIXELS_MESSAGE = 'Dimensi gambar terlalu besar (maksimal 16 megapiksel)';
/** Unused images (uploaded, named by no blast) a user may keep: the blast form needs one. */
export const MAX_UNUSED_UPLOADS = 10;
export const MAX_UNUSED_BYTES = 20 * 1024 * 1024;
export const UNUSED_QUOTA_MESSAGE = `Terlalu banyak gambar yang belum dipakai untuk blast (maksimal ${MAX_UNUSED_UPLOADS} gambar atau 20 MB). Kirim blast dengan gambar yang sudah diupload, atau coba lagi besok.`;
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
 * Re-encodes take turns per user (modules/uploads/fair-queue.ts): two at once, never two of one
 * user, so a user's flood of large images delays only that user's own, and the admin's QR never
 * waits behind a client's. With MAX_PIXELS, two re-encodes at once take about the memory one
 * 36-megapixel GIF took alone.
 */
const reencodeQueue = new FairQueue(2);
export const reencodes = { running: 0, most: 0 };

/** Refuses an image too large once decoded, from its header alone; answers its type's options. */
async function checkDimensions(bytes: Buffer, mime: string) {
  const sharp = (await imageLibraries())[1].default;
  const options = {
    limitInputPixels: MAX_PIXELS,
    failOn: 'truncated',
    animated: mime === 'image/gif',
  } as const;
  let meta;
  try {
    meta = await sharp(bytes, options).metadata();
  } catch (error) {
    throw imageError(error);
  }
  const frames = meta.pages ?? 1;
  if ((meta.width ?? 0) * (meta.pageHeight ?? meta.height ?? 0) * frames > MAX_PIXELS)
    throw new HttpError(422, PIXELS_MESSAGE);
  return options;
}

function imageError(error: unknown) {
  const message = String((error as Error).message ?? '');
  if (/pixel|too large/i.test(message)) return new HttpError(422, PIXELS_MESSAGE);
  return new HttpError(422, 'Gambar rusak atau tidak dapat dibaca');
}

async function reencode(bytes: Buffer, mime: string, userId: string): Promise<Buffer> {
  const options = await checkDimensions(bytes, mime);
  return reencodeQueue.run(userId, async () => {
    reencodes.most = Math.max(reencodes.most, ++reencodes.running);
    try {
      const image = (await imageLibraries())[1].default(bytes, options);
      if (mime === 'image/png') return await image.rotate().png().toBuffer();
      if (mime === 'image/jpeg') return await image.rotate().jpeg({ quality: 88 }).toBuffer();
      return await image.gif().toBuffer();
    } catch (error) {
      throw imageError(error);
    } finally {
      reencodes.running -= 1;
    }
  });
}

/** An upload that no blast names as its image. */
const notNamedByBlast = ({ not, exists, selectFrom }: ExpressionBuilder<Database, 'uploads'>) =>
  not(
    exists(
      selectFrom('blasts')
        .select('id')
        .whereRef('image_url', '=', sql<string>`${sql.lit(UPLOAD_PATH)} || uploads.name`),
    ),
  );

/** The images of `userId` that no blast names yet: how many, and their bytes. */
async function unusedImages(db: Db, userId: string) {
  const row = await db
    .selectFrom('uploads')
    .select(({ fn }) => [fn.countAll<number>().as('count'), fn.sum<number>('bytes').as('bytes')])
    .where('user_id', '=', userId)
    .where('kind', '=', 'image')
    .where(notNamedByBlast)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), bytes: Number(row.bytes ?? 0) };
}

/** Refuses a blast image past the user's quota of unused ones (`adding` bytes more). */
async function checkUnusedQuota(db: Db, userId: string, adding: number) {
  const unused = await unusedImages(db, userId);
  if (unused.count + 1 > MAX_UNUSED_UPLOADS || unused.bytes + adding > MAX_UNUSED_BYTES)
    throw new HttpError(409, UNUSED_QUOTA_MESSAGE);
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
  // Refused before the image is worked on; checked again below, where it is decided.
  if (kind === 'image') await checkUnusedQuota(database.db, userId, 0);
  const clean = await reencode(bytes, type.mime, userId);
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
    await transact(database, async (tx) => {
      const trx = tx.db;
      if (kind === 'image') {
        // The owner's row locked: the user's uploads pass the quota's check one at a time
        // (SQLite's transactions already run one at a time).
        await forUpdate(
          tx,
          trx.selectFrom('users').select('id').where('id', '=', userId),
        ).execute();
      }
      await holdClient(tx, userId);
      if (kind === 'image') await checkUnusedQuota(trx, userId, row.bytes);
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

/** A stored file by its name, with its type; undefined when the name or the file is unknown. */
export async function storedFile(
  db: Db,
  store: FileStore,
  name: string,
): Promise<{ mime: string; bytes: Buffer } | undefined> {
  const row = isUploadName(name)
    ? await db
        .selectFrom('uploads')
        .select(['name', 'mime'])
        .where('name', '=', name)
        .executeTakeFirst()
    : undefined;
  const bytes = row && (await store.get(row.name));
  return row && bytes ? { mime: row.mime, bytes } : undefined;
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
  const gone = await transact(database, async ({ db: trx }) => {
    const settings = await trx
      .selectFrom('settings')
      .select(['qr_code_file', 'barcode_url'])
      .where('id', '=', 1)
      .executeTakeFirst();
    // Named as the QR fallback reads it: any address ending in the file's name.
    const named = [settings?.qr_code_file, settings?.barcode_url].flatMap(
      (url) => endingName(url) ?? [],
    );
    let unused = trx.deleteFrom('uploads').where('created_at', '<', cutoff).where(notNamedByBlast);
    if (named.length > 0) unused = unused.where('name', 'not in', named);
    return unused.returning('name').execute();
  });
  const names = gone.map((row) => row.name);
  await removeFiles(store, names);
  return names;
}

/**
 * A stored file is written before its row (a row always names a whole file); a crash between the
 * two leaves a file no row names. One this old has outlived any upload still being stored.
 */
const ORPHAN_AGE_MS = 60 * 60 * 1000;

/**
 * Removes the files of the upload directory that no row names, written more than an hour before
 * `at`: what a crash (kill -9, power loss) left between writing a file and its row. Files whose
 * names are not upload names are not ours and stay. Answers the names removed.
 */
export async function sweepOrphanFiles(
  database: DbHandle,
  store: FileStore,
  at = new Date(),
): Promise<string[]> {
  const cutoff = at.getTime() - ORPHAN_AGE_MS;
  const old = (await store.list())
    .filter((file) => isUploadName(file.name) && file.modifiedAt.getTime() < cutoff)
    .map((file) => file.name);
  const orphans: string[] = [];
  // In chunks: a query's parameters are bounded (SQLite allows 32,766).
  for (let start = 0; start < old.length; start += 500) {
    const chunk = old.slice(start, start + 500);
    const named = await database.db
      .selectFrom('uploads')
      .select('name')
      .where('name', 'in', chunk)
      .execute();
    const known = new Set(named.map((row) => row.name));
    orphans.push(...chunk.filter((name) => !known.has(name)));
  }
  await removeFiles(store, orphans);
  return orphans;
}

/** Files no row names any more, removed after the rows' deletion committed. */
export async function removeFiles(store: FileStore, names: readonly string[]): Promise<void> {
  await Promise.all(names.map((name) => store.remove(name).catch(() => undefined)));
}

export const toDataUrl = (mime: string, bytes: Buffer) =>
  `data:${mime};base64,${bytes.toString('base64')}`;
