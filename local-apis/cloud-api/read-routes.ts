// The Graph nodes besides sending: a node by id (a phone number, an uploaded media, the business
// account), the account's phone_numbers and message_templates edges, and the media upload.
import { createHash, randomInt } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError, type DoubleContext } from './context.ts';
import { graphError, unknownObjectError } from './errors.ts';

type NodeRequest = FastifyRequest<{
  Params: { version: string; id: string };
  Querystring: Record<string, string | undefined>;
}>;

/** Keeps the `fields` asked for (comma-separated), always with the id, as the Graph API does. */
function pick<T extends Record<string, unknown>>(node: T, fields: string | undefined) {
  if (!fields) return node;
  const wanted = new Set(['id', ...fields.split(',').map((f) => f.trim())]);
  return Object.fromEntries(Object.entries(node).filter(([key]) => wanted.has(key)));
}

/** A phone number node as the Graph API answers it. */
function phoneNode(id: string, displayPhoneNumber: string, verifiedName: string) {
  return {
    verified_name: verifiedName,
    code_verification_status: 'VERIFIED',
    display_phone_number: displayPhoneNumber,
    quality_rating: 'GREEN',
    platform_type: 'CLOUD_API',
    throughput: { level: 'STANDARD' },
    id,
  };
}

/** `GET /{version}/{id}`: a phone number (this account's or another's), a media, the WABA. */
export function handleNode(ctx: DoubleContext, request: NodeRequest, reply: FastifyReply) {
  const { id } = request.params;
  const { fields } = request.query;
  const o = ctx.options;
  if (id === o.phoneNumberId) {
    return reply.send(pick(phoneNode(id, o.displayPhoneNumber, o.verifiedName), fields));
  }
  const other = o.otherPhoneNumbers.find((phone) => phone.id === id);
  if (other) {
    return reply.send(pick(phoneNode(id, other.displayPhoneNumber, other.verifiedName), fields));
  }
  const media = ctx.media.get(id);
  if (media) {
    const node = {
      messaging_product: 'whatsapp',
      url: `${ctx.baseUrl()}/media-download/${id}`,
      mime_type: media.mimeType,
      sha256: media.sha256,
      file_size: media.bytes.length,
      id,
    };
    return reply.send(pick(node, fields));
  }
  if (id === o.businessAccountId) {
    const waba = { id, name: o.verifiedName, currency: 'IDR', timezone_id: '110' };
    return reply.send(pick(waba, fields));
  }
  return sendError(reply, unknownObjectError(id, 'get'));
}

/** `GET /media-download/{id}`: the bytes of an uploaded media, behind the same token. */
export function handleMediaDownload(
  ctx: DoubleContext,
  request: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
) {
  const media = ctx.media.get(request.params.id);
  if (!media) return sendError(reply, unknownObjectError(request.params.id, 'get'));
  return reply.type(media.mimeType).send(media.bytes);
}

const cursor = (index: number) => Buffer.from(`index:${index}`).toString('base64url');

function fromCursor(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const match = /^index:(\d+)$/.exec(Buffer.from(text, 'base64url').toString());
  return match ? Number(match[1]) : undefined;
}

/** `GET /{version}/{waba_id}/phone_numbers`: the account's one phone number, with `fields`. */
export function handlePhoneNumbers(ctx: DoubleContext, request: NodeRequest, reply: FastifyReply) {
  const { id } = request.params;
  const o = ctx.options;
  if (id !== o.businessAccountId) return sendError(reply, unknownObjectError(id, 'get'));
  const phone = phoneNode(o.phoneNumberId, o.displayPhoneNumber, o.verifiedName);
  return reply.send({
    data: [pick(phone, request.query.fields)],
    paging: { cursors: { before: cursor(0), after: cursor(0) } },
  });
}

/** `GET /{version}/{waba_id}/message_templates`: filters, `fields`, `limit`, `after`/`before`. */
export function handleTemplates(ctx: DoubleContext, request: NodeRequest, reply: FastifyReply) {
  const { id, version } = request.params;
  if (id !== ctx.options.businessAccountId) return sendError(reply, unknownObjectError(id, 'get'));
  const query = request.query;
  const limit = Math.min(Math.max(Number(query.limit) || 25, 1), 1000);
  const all = ctx.options.templates.filter(
    (t) =>
      (!query.name || t.name.includes(query.name)) &&
      (!query.status || t.status === query.status.toUpperCase()) &&
      (!query.language || t.language === query.language) &&
      (!query.category || t.category === query.category.toUpperCase()),
  );
  const after = fromCursor(query.after);
  const before = fromCursor(query.before);
  const start =
    after !== undefined ? after + 1 : before !== undefined ? Math.max(0, before - limit) : 0;
  const end = before !== undefined && after === undefined ? before : start + limit;
  const page = all.slice(start, end);
  const data = page.map((t) => pick({ ...t }, query.fields));
  if (page.length === 0) return reply.send({ data });
  const last = start + page.length - 1;
  const paging: Record<string, unknown> = {
    cursors: { before: cursor(start), after: cursor(last) },
  };
  const link = (key: 'after' | 'before', value: string) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query))
      if (v !== undefined && k !== 'after' && k !== 'before') params.set(k, v);
    params.set('limit', String(limit));
    params.set(key, value);
    return `${ctx.baseUrl()}/${version}/${id}/message_templates?${params}`;
  };
  if (last < all.length - 1) paging.next = link('after', cursor(last));
  if (start > 0) paging.previous = link('before', cursor(start));
  return reply.send({ data, paging });
}

const MEDIA_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'video/mp4',
  'video/3gpp',
  'audio/aac',
  'audio/mpeg',
  'audio/ogg',
  'application/pdf',
  'text/plain',
];

/** `POST /{version}/{phone_number_id}/media`: multipart `file`, `type`, `messaging_product`. */
export async function handleMediaUpload(
  ctx: DoubleContext,
  request: NodeRequest,
  reply: FastifyReply,
) {
  const { id } = request.params;
  ctx.mediaUploads += 1;
  if (ctx.mediaUploads <= (ctx.options.mediaUploadsDropped ?? 0)) {
    reply.hijack();
    request.raw.socket.destroy();
    return reply;
  }
  if (id !== ctx.options.phoneNumberId) return sendError(reply, unknownObjectError(id, 'post'));
  if (!request.isMultipart())
    return sendError(reply, graphError(100, 'The parameter file is required.'));
  const fields: Record<string, string> = {};
  let file: { bytes: Buffer; filename: string; mimetype: string } | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      if (part.fieldname === 'file')
        file = { bytes, filename: part.filename, mimetype: part.mimetype };
    } else {
      fields[part.fieldname] = String(part.value);
    }
  }
  const summary = file && {
    filename: file.filename,
    mimetype: file.mimetype,
    size: file.bytes.length,
  };
  ctx.log.setBody(request, { ...fields, ...(summary ? { file: summary } : {}) });
  const missing =
    ['messaging_product', 'type'].find((name) => !fields[name]) ?? (file ? undefined : 'file');
  if (missing) return sendError(reply, graphError(100, `The parameter ${missing} is required.`));
  if (fields.messaging_product !== 'whatsapp') {
    return sendError(reply, graphError(100, 'Param messaging_product must be one of {WHATSAPP}'));
  }
  const type = fields.type ?? '';
  if (!MEDIA_TYPES.includes(type) || !file) {
    return sendError(reply, graphError(131053, `Param type ${type} is not a supported media type`));
  }
  const mediaId = String(10 ** 14 + randomInt(0, 2 ** 47));
  const sha256 = createHash('sha256').update(file.bytes).digest('hex');
  ctx.media.set(mediaId, {
    id: mediaId,
    bytes: file.bytes,
    mimeType: type,
    filename: file.filename,
    sha256,
    at: Date.now(),
  });
  return reply.send({ id: mediaId });
}
