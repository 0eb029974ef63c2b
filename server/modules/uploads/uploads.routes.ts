// Image uploads (client blast image, admin QR), the QR as inline data, and serving stored files.
import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import {
  IMAGE_SIZE_MESSAGE,
  ImageUploadSchema,
  MAX_IMAGE_BYTES,
  QrDataSchema,
  QrUploadSchema,
} from '#common/settings.ts';
import { ErrorSchema } from '#common/auth.ts';
import { z } from '#common/zod.ts';
import type { App, AppContext } from '#server/app-context.ts';
import { HttpError, notFound } from '#server/plugins/errors.ts';
import { currentUser } from '#server/plugins/auth.ts';
import { qrFile, readSettings } from '#server/modules/settings/settings.service.ts';
import { IMAGES_OFF, storedFile, storeImage, toDataUrl, UPLOAD_PATH } from './uploads.service.ts';

const tags = ['uploads'];
const FILE_RULES = `Gambar PNG, JPG atau GIF, maksimal ${MAX_IMAGE_BYTES / 1024 / 1024} MB`;
/** The one file each upload form carries, as the API document describes it. */
const IMAGE_UPLOAD = { field: 'image', description: FILE_RULES };
const QR_UPLOAD = { field: 'file', description: `QR Code pembayaran: ${FILE_RULES}` };

/** The one file of the form, sent as `field`; every part is read, so a second file is noticed. */
async function readFile(request: FastifyRequest, field: string): Promise<Buffer> {
  if (!request.isMultipart()) throw new HttpError(415, 'Upload harus berupa multipart/form-data');
  let bytes: Buffer | undefined;
  try {
    // A second file breaks the files limit: FST_FILES_LIMIT, 'Hanya satu file yang boleh diupload'.
    const parts = request.parts({
      limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 5, parts: 6 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname === field)
          throw new HttpError(422, `Field "${field}" harus berisi file`);
        continue;
      }
      if (part.fieldname !== field) {
        part.file.resume();
        throw new HttpError(422, `File harus dikirim pada field "${field}"`);
      }
      bytes = await part.toBuffer();
      if (part.file.truncated) throw new HttpError(413, IMAGE_SIZE_MESSAGE);
    }
  } catch (error) {
    // The multipart parser throws plain errors on a malformed or cut-off body: the sender's fault.
    if (error instanceof HttpError || (error as { code?: string }).code?.startsWith('FST_'))
      throw error;
    throw new HttpError(400, 'Data upload rusak atau tidak lengkap');
  }
  if (!bytes) throw new HttpError(422, `File pada field "${field}" harus diisi`);
  return bytes;
}

export function uploadsRoutes(app: App, context: AppContext) {
  // The multipart parser and its per-request hooks only where a file is received: registered
  // for the whole app, they ran two async hooks on every request.
  app.register(async (scope: App) => {
    await scope.register(fastifyMultipart, { limits: { fileSize: MAX_IMAGE_BYTES, files: 1 } });
    receiveRoutes(scope, context);
  });
  serveRoutes(app, context);
}

function receiveRoutes(app: App, { database, files: store }: AppContext) {
  app.post(
    '/api/upload/image',
    {
      config: { access: 'user', upload: IMAGE_UPLOAD, expensive: true },
      // 403: images are switched off in the settings.
      schema: { tags, response: { 200: ImageUploadSchema, 403: ErrorSchema } },
    },
    async (request) => {
      // Checked before the body is read: a refused upload costs nothing to receive.
      if (!(await readSettings(database.db)).allow_images) throw new HttpError(403, IMAGES_OFF);
      const row = await storeImage(
        database,
        store,
        await readFile(request, IMAGE_UPLOAD.field),
        'image',
        currentUser(request).id,
      );
      return { url: `${UPLOAD_PATH}${row.name}` };
    },
  );

  app.post(
    '/api/admin/upload-qr',
    {
      config: { access: 'admin', upload: QR_UPLOAD, expensive: true },
      schema: { tags, response: { 200: QrUploadSchema } },
    },
    async (request) => {
      const bytes = await readFile(request, QR_UPLOAD.field);
      const row = await storeImage(database, store, bytes, 'qr', currentUser(request).id);
      const stored = await store.get(row.name);
      return {
        file_url: `${UPLOAD_PATH}${row.name}`,
        data_url: toDataUrl(row.mime, stored ?? bytes),
      };
    },
  );
}

function serveRoutes(app: App, { database: { db }, files: store }: AppContext) {
  // Clients use this as the QR fallback too, but only for the QR the settings currently name.
  app.get(
    '/api/admin/qr-data/:filename',
    {
      config: { access: 'user' },
      schema: {
        tags,
        params: z.object({ filename: z.string().max(100) }),
        response: { 200: QrDataSchema },
      },
    },
    async (request) => {
      const file = await qrFile(db, store, request.params.filename, currentUser(request).role);
      if (!file) throw notFound('File QR');
      return { data_url: toDataUrl(file.mime, file.bytes) };
    },
  );

  // Stored files are public (an <img> cannot send a token) and can never run as a page.
  app.get(
    '/uploads/:name',
    { schema: { hide: true, params: z.object({ name: z.string().max(100) }) } },
    async (request, reply) => {
      const file = await storedFile(db, store, request.params.name);
      if (!file) throw notFound('File');
      return reply
        .header('Content-Type', file.mime)
        .header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'; sandbox")
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .send(file.bytes);
    },
  );
}
