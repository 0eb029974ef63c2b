// WAHA (the self-hosted WhatsApp HTTP API) as Sebar calls it: one request function that turns
// every failure into a WahaError, and the calls the gateway's devices and sends make. Shapes
// from WAHA's documentation (waha.devlike.pro: Sessions, Send messages, Contacts, Events).
import { failureKind, type FailureKind } from './cloud-api.ts';

/** Where the gateway is and its API key (`X-Api-Key`), in plain text (never answered). */
export interface WahaConnection {
  base_url: string;
  api_key: string;
}

/** How long Sebar waits for WAHA (a send waits for WhatsApp Web, and a 422 after 5 s). */
export const WAHA_TIMEOUT_MS = 20_000;

/**
 * A failed WAHA call. `code` is WhatsApp's own refusal when WAHA passed one on (463 reachout
 * timelock, 475 message capping: "server returned error 463").
 */
export class WahaError extends Error {
  constructor(
    message: string,
    readonly kind: FailureKind,
    readonly status: number | null = null,
    readonly code: number | null = null,
  ) {
    super(message);
  }
}

/** WAHA's session states. */
export const SESSION_STATUSES = [
  'STOPPED',
  'STARTING',
  'SCAN_QR_CODE',
  'WORKING',
  'FAILED',
] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export interface WahaSession {
  name: string;
  status: SessionStatus;
  /** The paired account, once WORKING: `{id: "628…@c.us", pushName}`. */
  me?: { id: string; pushName?: string } | null;
}

/** The events Sebar subscribes each session to. */
export const WAHA_EVENTS = ['message.ack', 'session.status', 'message'] as const;

async function wahaRequest<T>(
  connection: WahaConnection,
  path: string,
  init: { method?: string; body?: unknown; query?: Record<string, string>; raw?: boolean } = {},
): Promise<T> {
  const url = new URL(`${connection.base_url.replace(/\/+$/, '')}${path}`);
  for (const [name, value] of Object.entries(init.query ?? {})) url.searchParams.set(name, value);
  let answer: Response;
  try {
    answer = await fetch(url, {
      method: init.method ?? 'GET',
      headers: {
        'x-api-key': connection.api_key,
        accept: init.raw ? 'image/png' : 'application/json',
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
      signal: AbortSignal.timeout(WAHA_TIMEOUT_MS),
    });
  } catch (error) {
    throw new WahaError(String(error), failureKind(error));
  }
  if (answer.ok && init.raw) return Buffer.from(await answer.arrayBuffer()) as T;
  const text = await answer.text();
  let body: unknown = null;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // not JSON: a proxy's page
  }
  if (answer.ok) return body as T;
  const { message, code } = problemOf(body, answer.status);
  throw new WahaError(message, 'answer', answer.status, code);
}

/** The message WAHA answered, and WhatsApp's code in "server returned error 463". */
function problemOf(body: unknown, status: number): { message: string; code: number | null } {
  const b = body as {
    message?: unknown;
    error?: unknown;
    exception?: { details?: unknown; message?: unknown };
  } | null;
  const texts = [b?.exception?.details, b?.exception?.message, b?.message, b?.error];
  const message = texts
    .map((t) => (Array.isArray(t) ? t.join('; ') : t))
    .find((t): t is string => typeof t === 'string' && t !== '');
  const code = /returned error (\d{3})/.exec(message ?? '')?.[1];
  return { message: message ?? `HTTP ${status}`, code: code ? Number(code) : null };
}

/** WhatsApp's chat id of a number in Sebar's form ('628…'). */
export const chatIdOf = (number: string) => `${number}@c.us`;

/** The number ('628…') of a person's chat id ('628…@c.us', or NOWEB's '@s.whatsapp.net'), or null. */
export const numberOfChat = (chatId: unknown): string | null =>
  /^(\d{6,20})@(c\.us|s\.whatsapp\.net)$/.exec(String(chatId))?.[1] ?? null;

/**
 * The number WAHA knows for a hidden id ('…@lid'), asked through the session that heard it:
 * '628…', or null when WAHA knows none (`{lid, pn: null}`).
 */
export async function lidNumber(
  connection: WahaConnection,
  session: string,
  lid: string,
): Promise<string | null> {
  const answer = await wahaRequest<{ pn?: unknown } | null>(
    connection,
    `/api/${encodeURIComponent(session)}/lids/${encodeURIComponent(lid)}`,
  );
  return numberOfChat(answer?.pn);
}

/** A session's config: its events come to Sebar's webhook, signed with `hmacKey`. */
function sessionConfig(webhookUrl: string, hmacKey: string) {
  return {
    webhooks: [
      {
        url: webhookUrl,
        events: WAHA_EVENTS,
        hmac: { key: hmacKey },
        retries: { policy: 'exponential', delaySeconds: 2, attempts: 15 },
      },
    ],
  };
}

/** Creates and starts a session whose events come to Sebar's webhook, signed with `hmacKey`. */
export function createSession(
  connection: WahaConnection,
  session: { name: string; webhookUrl: string; hmacKey: string },
) {
  return wahaRequest<WahaSession>(connection, '/api/sessions', {
    method: 'POST',
    body: {
      name: session.name,
      start: true,
      config: sessionConfig(session.webhookUrl, session.hmacKey),
    },
  });
}

/**
 * Gives a session its webhook again (a new `hmacKey`): WAHA replaces the session's config and
 * restarts it if it runs; a paired device stays paired.
 */
export function updateSession(
  connection: WahaConnection,
  session: { name: string; webhookUrl: string; hmacKey: string },
) {
  return wahaRequest<WahaSession>(connection, `/api/sessions/${encodeURIComponent(session.name)}`, {
    method: 'PUT',
    body: { name: session.name, config: sessionConfig(session.webhookUrl, session.hmacKey) },
  });
}

export const readSession = (connection: WahaConnection, name: string) =>
  wahaRequest<WahaSession>(connection, `/api/sessions/${encodeURIComponent(name)}`);

/** Starts, stops, logs out or restarts a session. */
export const sessionAction = (
  connection: WahaConnection,
  name: string,
  action: 'start' | 'stop' | 'logout' | 'restart',
) =>
  wahaRequest<unknown>(connection, `/api/sessions/${encodeURIComponent(name)}/${action}`, {
    method: 'POST',
  });

export const deleteSession = (connection: WahaConnection, name: string) =>
  wahaRequest<unknown>(connection, `/api/sessions/${encodeURIComponent(name)}`, {
    method: 'DELETE',
  });

/** The pairing QR as a PNG (only while the session is SCAN_QR_CODE). */
export const pairingQr = (connection: WahaConnection, name: string) =>
  wahaRequest<Buffer>(connection, `/api/${encodeURIComponent(name)}/auth/qr`, {
    query: { format: 'image' },
    raw: true,
  });

/** Whether the number is on WhatsApp. */
export async function numberExists(
  connection: WahaConnection,
  session: string,
  number: string,
): Promise<boolean> {
  const answer = await wahaRequest<{ numberExists?: boolean }>(
    connection,
    '/api/contacts/check-exists',
    { query: { phone: number, session } },
  );
  return answer.numberExists === true;
}

/** Shows (or stops showing) "typing…" in the recipient's chat. */
export const typing = (connection: WahaConnection, session: string, number: string, on: boolean) =>
  wahaRequest<unknown>(connection, on ? '/api/startTyping' : '/api/stopTyping', {
    method: 'POST',
    body: { session, chatId: chatIdOf(number) },
  });

/** An image as WAHA sends it: its bytes inline. */
export interface WahaFile {
  mimetype: string;
  filename: string;
  data: string;
}

/**
 * Sends the text (with the image as a captioned photo when given). Answers the message id, or
 * null when WAHA took the message but its answer names none Sebar can read: its acks will.
 */
export async function sendMessage(
  connection: WahaConnection,
  message: { session: string; number: string; text: string; image: WahaFile | null },
): Promise<string | null> {
  const chatId = chatIdOf(message.number);
  const answer = message.image
    ? await wahaRequest<unknown>(connection, '/api/sendImage', {
        method: 'POST',
        body: { session: message.session, chatId, file: message.image, caption: message.text },
      })
    : await wahaRequest<unknown>(connection, '/api/sendText', {
        method: 'POST',
        body: { session: message.session, chatId, text: message.text },
      });
  return messageIdOf(answer);
}

/**
 * The id of a sent message as WAHA's events name it, from the send's answer: `id` as a string
 * (GOWS) or as `{_serialized}` (WEBJS), or NOWEB's Baileys `key`, from which WAHA builds
 * `<fromMe>_<chat>@c.us_<id>`.
 */
export function messageIdOf(answer: unknown): string | null {
  const { id, key } = (answer ?? {}) as { id?: unknown; key?: unknown };
  if (typeof id === 'string' && id !== '') return id;
  const serialized = (id as { _serialized?: unknown } | null)?._serialized;
  if (typeof serialized === 'string' && serialized !== '') return serialized;
  const k = (key ?? {}) as { id?: unknown; remoteJid?: unknown; fromMe?: unknown };
  if (typeof k.id !== 'string' || k.id === '' || typeof k.remoteJid !== 'string') return null;
  const chat = k.remoteJid.replace(/@s\.whatsapp\.net$/, '@c.us');
  return `${k.fromMe === true}_${chat}_${k.id}`;
}

/** Every session the gateway knows, stopped ones too: what 'Tes Koneksi' asks. */
export const listSessions = (connection: WahaConnection) =>
  wahaRequest<WahaSession[]>(connection, '/api/sessions', { query: { all: 'true' } });

/** Indonesian, for the admin: what a failed WAHA call says about the gateway's settings. */
export function wahaProblem(error: WahaError, baseUrl: string): string {
  if (error.kind === 'timeout')
    return `WAHA di ${baseUrl} tidak menjawab dalam ${WAHA_TIMEOUT_MS / 1000} detik`;
  if (error.kind !== 'answer') return `WAHA di ${baseUrl} tidak dapat dihubungi`;
  const status = `HTTP ${error.status ?? '?'}`;
  // WAHA's own words, when it gave some (a bare status says nothing more).
  const detail = error.message === status ? ` (${status})` : ` (${status}: ${error.message})`;
  if (error.status === 401 || error.status === 403) return `API key WAHA ditolak (${status})`;
  if (error.status === 404) return `Tidak ditemukan di WAHA${detail}`;
  return `WAHA menolak permintaan${detail}`;
}
