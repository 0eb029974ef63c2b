// The API document at /api/docs: @fastify/swagger from each route's zod schemas, completed here,
// in one place for every route, with what routes share: the error answers each can give (all in
// the {detail, errors?} shape), no token for public routes, and the form of a file upload.
import fastifySwagger from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { ErrorSchema } from '#common/auth.ts';
import { z } from '#common/zod.ts';
import type { App } from '#server/app-context.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A multipart upload of one file: its form field and what the file must be. */
    upload?: { field: string; description: string };
  }
}

/** What each error status means here; every one is answered with the Error schema. */
export const ERROR_STATUSES: Readonly<Record<number, string>> = {
  400: 'Permintaan rusak: JSON tidak valid atau kosong, alamat tidak terbaca, upload terpotong',
  401: 'Tanpa token, atau token tidak valid, kedaluwarsa atau dicabut',
  403: 'Peran atau keadaan akun tidak mengizinkan permintaan ini',
  404: 'Data yang dituju tidak ditemukan (atau bukan milik pemanggil)',
  409: 'Bertabrakan dengan keadaan data saat ini; muat ulang dan coba lagi',
  413: 'Body atau file terlalu besar',
  414: 'Parameter alamat terlalu panjang',
  415: 'Jenis konten tidak didukung',
  422: 'Data tidak valid; `errors` menyebut field dan pesannya',
  429: 'Terlalu banyak permintaan; header Retry-After menyebut berapa detik menunggu',
  500: 'Kesalahan pada server',
  502: 'Layanan luar (WhatsApp Cloud API) gagal atau menolak permintaan; `detail` menyebut sebabnya',
};

/** Methods whose body Fastify reads: each can be malformed, too large or of another type. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The error statuses a route can answer, from what it declares: every route checks its text
 * (422), counts requests (429) and may fail (500); a guarded route checks the token (401) and
 * a role-bound one the role (403); a path parameter can be undecodable (400), too long (414) or
 * name nothing (404); a body can be malformed (400), too large (413) or of another type (415),
 * and a write can meet a conflicting one (409). A route that answers another status declares it
 * in its own `schema.response` with ErrorSchema (sign-in's 401 and 403).
 */
export function errorStatuses(route: Pick<RouteOptions, 'method' | 'url' | 'config' | 'schema'>) {
  const statuses = new Set([422, 429, 500]);
  const access = route.config?.access;
  if (access !== 'public') statuses.add(401);
  if (access === 'admin' || access === 'client') statuses.add(403);
  if (route.url.includes(':')) for (const status of [400, 404, 414]) statuses.add(status);
  if ([route.method].flat().some((method) => BODY_METHODS.has(method))) {
    for (const status of [400, 409, 413, 415]) statuses.add(status);
  }
  for (const status of Object.keys(route.schema?.response ?? {})) {
    if (Number(status) >= 400) statuses.add(Number(status));
  }
  return [...statuses].sort((a, b) => a - b);
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };

const errorResponse = (status: number) => ({
  description: ERROR_STATUSES[status] ?? 'Kesalahan',
  ...(status === 429 && {
    headers: { 'retry-after': { description: 'Detik sampai boleh mencoba lagi', type: 'integer' } },
  }),
  content: { 'application/json': { schema: ERROR_REF } },
});

/** The zod transform of a route's schemas, then what every route shares. */
const transform: typeof jsonSchemaTransform = (input) => {
  const { schema, url } = jsonSchemaTransform(input);
  const { route } = input;
  if (!schema || schema.hide) return { schema, url };
  const response: Record<string, unknown> = { ...(schema.response as object) };
  for (const status of errorStatuses(route)) response[status] = errorResponse(status);
  const documented: Record<string, unknown> = { ...schema, response };
  if (route.config?.access === 'public') documented.security = [];
  const upload = route.config?.upload;
  if (upload) {
    documented.consumes = ['multipart/form-data'];
    documented.body = {
      type: 'object',
      required: [upload.field],
      properties: {
        [upload.field]: { type: 'string', format: 'binary', description: upload.description },
      },
    };
  }
  return { schema: documented, url };
};

export async function registerOpenApi(app: App): Promise<void> {
  // The one error shape, in the document's schema dialect (without JSON Schema's $schema).
  const error: Record<string, unknown> = z.toJSONSchema(ErrorSchema, {
    io: 'output',
    target: 'openapi-3.0',
  });
  delete error.$schema;
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Sebar API',
        version: '1.0.0',
        description:
          'Layanan WhatsApp blast berbasis poin. Setiap jawaban gagal berbentuk {detail, errors?} (skema Error).',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
        schemas: { Error: error },
      },
      security: [{ bearer: [] }],
    },
    transform,
  });
}
