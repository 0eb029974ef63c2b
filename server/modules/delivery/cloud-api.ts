// The WhatsApp Cloud API (Meta's Graph API) as Sebar calls it: one request function that turns
// every failure into a GraphError, and the calls the delivery settings and templates make.
import { errorCodeOf } from '#common/whatsapp-errors.ts';

/** What a call to the Cloud API needs, secrets in plain text (never answered). */
export interface CloudApiCredentials {
  graph_url: string;
  api_version: string;
  phone_number_id: string;
  business_account_id: string;
  access_token: string;
  app_secret: string;
  verify_token: string;
  messages_per_second: number;
  daily_recipient_limit: number | null;
}

/** How long Sebar waits for an answer from the Graph API. */
export const GRAPH_TIMEOUT_MS = 10_000;

/**
 * How a call to a WhatsApp API failed: `answer`, the API answered an error; `unreachable`, no
 * connection was made, so the request never left; `network` and `timeout`, it may have arrived
 * (an answer lost on its way back).
 */
export type FailureKind = 'answer' | 'unreachable' | 'network' | 'timeout';

/** A failed Graph API call: Meta's error `code` when it answered one, else how it failed. */
export class GraphError extends Error {
  constructor(
    message: string,
    readonly kind: FailureKind,
    readonly status: number | null = null,
    readonly code: number | null = null,
    readonly title: string | null = null,
  ) {
    super(message);
  }
}

/**
 * What a failed Graph API call means for the admin, in Indonesian: the one place for these
 * messages (Tes Koneksi, template sync).
 */
export function graphProblem(error: GraphError, graphUrl: string): string {
  if (error.kind === 'timeout')
    return `Graph API di ${graphUrl} tidak menjawab dalam ${GRAPH_TIMEOUT_MS / 1000} detik`;
  if (error.kind !== 'answer') return `Graph API di ${graphUrl} tidak dapat dihubungi`;
  const detail = ` (kode ${error.code ?? error.status}: ${error.message})`;
  switch (error.code) {
    case 190:
      return `Access token tidak valid atau sudah kedaluwarsa${detail}`;
    case 100:
    case 803:
      return `Phone Number ID atau WhatsApp Business Account ID tidak ditemukan untuk token ini${detail}`;
    case 10:
    case 200:
      return `Token tidak memiliki izin WhatsApp yang dibutuhkan${detail}`;
    case 4:
    case 80007:
    case 130429:
      return `Batas permintaan Graph API tercapai, coba lagi sebentar lagi${detail}`;
    default:
      return `Graph API menolak permintaan${detail}`;
  }
}

interface GraphErrorBody {
  error?: { message?: unknown; code?: unknown; error_user_title?: unknown; type?: unknown };
}

/** Calls `path` under the account's Graph URL and version with its access token. */
export async function graphRequest<T>(
  credentials: CloudApiCredentials,
  path: string,
  init: { method?: string; body?: unknown; query?: Record<string, string> } = {},
): Promise<T> {
  const url = new URL(`${credentials.graph_url}/${credentials.api_version}/${path}`);
  for (const [name, value] of Object.entries(init.query ?? {})) url.searchParams.set(name, value);
  const json = init.body !== undefined && !(init.body instanceof FormData);
  let answer: Response;
  try {
    answer = await fetch(url, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${credentials.access_token}`,
        ...(json ? { 'content-type': 'application/json' } : {}),
      },
      body: json ? JSON.stringify(init.body) : (init.body as FormData | undefined),
      signal: AbortSignal.timeout(GRAPH_TIMEOUT_MS),
    });
  } catch (error) {
    throw new GraphError(String(error), failureKind(error));
  }
  const text = await answer.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: a proxy's page, an empty answer
  }
  if (answer.ok && body !== null) return body as T;
  const error = (body as GraphErrorBody | null)?.error;
  throw new GraphError(
    typeof error?.message === 'string' ? error.message : `HTTP ${answer.status}`,
    'answer',
    answer.status,
    errorCodeOf(error?.code),
    typeof error?.error_user_title === 'string' ? error.error_user_title : null,
  );
}

/**
 * Connection failures that prove nothing was sent: the request never reached the server, or the
 * server's certificate was refused before any byte of it went.
 */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The kind of a failure to get any answer (`fetch` threw). */
export function failureKind(error: unknown): Exclude<FailureKind, 'answer'> {
  if (error instanceof DOMException && error.name === 'TimeoutError') return 'timeout';
  const code = (error as { cause?: { code?: string } }).cause?.code;
  return code && NOT_CONNECTED.has(code) ? 'unreachable' : 'network';
}

/** A page of an edge of the Graph API. */
interface GraphPage<T> {
  data: T[];
  paging?: { cursors?: { after?: string }; next?: string };
}

/** Every item of an edge of the business account, page by page. */
async function readAccountEdge<T>(
  credentials: CloudApiCredentials,
  edge: 'phone_numbers' | 'message_templates',
  fields: string,
): Promise<T[]> {
  const items: T[] = [];
  let after: string | undefined;
  do {
    const page = await graphRequest<GraphPage<T>>(
      credentials,
      `${credentials.business_account_id}/${edge}`,
      { query: { fields, limit: '100', ...(after ? { after } : {}) } },
    );
    items.push(...page.data);
    after = page.paging?.next ? page.paging.cursors?.after : undefined;
  } while (after);
  return items;
}

export interface PhoneNumber {
  id: string;
  display_phone_number?: string;
  verified_name?: string;
}

/** The phone numbers of the business account. */
export function readPhoneNumbers(credentials: CloudApiCredentials): Promise<PhoneNumber[]> {
  return readAccountEdge(credentials, 'phone_numbers', 'id,display_phone_number,verified_name');
}

/** The phone number the sends go to, read as its own node (the object sends are posted to). */
export function readPhoneNumber(credentials: CloudApiCredentials): Promise<PhoneNumber> {
  return graphRequest<PhoneNumber>(credentials, credentials.phone_number_id, {
    query: { fields: 'id,display_phone_number,verified_name' },
  });
}

/** A message template as the business account's list answers it. */
export interface GraphTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: unknown[];
}

/** Every template of the business account. */
export function readTemplates(credentials: CloudApiCredentials): Promise<GraphTemplate[]> {
  return readAccountEdge(
    credentials,
    'message_templates',
    'id,name,language,status,category,components',
  );
}

/** A template message as the send call takes it (Cloud API reference, messages). */
export interface TemplateMessage {
  to: string;
  name: string;
  language: string;
  components: unknown[];
  /** Comes back in every status webhook of the message. */
  callbackData: string;
}

/** Sends a template message; answers Meta's message id (wamid). */
export async function sendTemplate(
  credentials: CloudApiCredentials,
  message: TemplateMessage,
): Promise<string> {
  const answer = await graphRequest<{ messages?: { id?: string }[] }>(
    credentials,
    `${credentials.phone_number_id}/messages`,
    {
      method: 'POST',
      body: {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: message.to,
        type: 'template',
        template: {
          name: message.name,
          language: { code: message.language },
          // Left out when the template takes no values, as Meta's own examples send it.
          ...(message.components.length > 0 ? { components: message.components } : {}),
        },
        biz_opaque_callback_data: message.callbackData,
      },
    },
  );
  const id = answer.messages?.[0]?.id;
  if (!id) throw new GraphError('Jawaban kirim tanpa id pesan', 'network');
  return id;
}

/** Uploads a file for a template header; answers the media id it is sent by. */
export async function uploadMedia(
  credentials: CloudApiCredentials,
  file: { bytes: Buffer; mime: string; name: string },
): Promise<string> {
  const form = new FormData();
  form.set('messaging_product', 'whatsapp');
  form.set('type', file.mime);
  form.set('file', new Blob([new Uint8Array(file.bytes)], { type: file.mime }), file.name);
  const answer = await graphRequest<{ id: string }>(
    credentials,
    `${credentials.phone_number_id}/media`,
    { method: 'POST', body: form },
  );
  return answer.id;
}
