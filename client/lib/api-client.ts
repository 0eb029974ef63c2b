// The one fetch wrapper: base /api, bearer token, JSON in and out, ApiError with the server's detail.
import { clearSession, getSession, SESSION_EXPIRED_MESSAGE } from './session.ts';

export const API_BASE = '/api';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The server's `detail` message, if it sent one. */
    readonly detail: string | null,
    readonly body: unknown = null,
  ) {
    super(detail ?? `HTTP ${status}`);
    this.name = 'ApiError';
  }
}

export const UNREACHABLE_MESSAGE = 'Server tidak dapat dihubungi. Periksa koneksi Anda.';
/** A gateway's answer for a server it could not reach; our own server always sends a detail. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

/**
 * Thrown when no answer came: the server is down, the connection dropped, or a proxy in front of
 * the server answered for it (502/503/504 without the server's own detail).
 */
export class NetworkError extends Error {
  constructor(cause?: unknown) {
    super(UNREACHABLE_MESSAGE, { cause });
    this.name = 'NetworkError';
  }
}

/** What failed, then why no answer came: 'Gagal ...: server tidak dapat dihubungi. ...'. */
function unreachableText(fallback: string): string {
  if (!fallback) return UNREACHABLE_MESSAGE;
  return `${fallback}: ${UNREACHABLE_MESSAGE.charAt(0).toLowerCase()}${UNREACHABLE_MESSAGE.slice(1)}`;
}

/**
 * The message to show for a failure: the server's detail, else the screen's own fallback; when the
 * server could not be reached, the fallback says what failed and the rest says why.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof NetworkError) return unreachableText(fallback);
  return error instanceof ApiError && error.detail ? error.detail : fallback;
}

/**
 * SPEC's failure text, followed by the server's reason when it gave one (a conflict, an overlap),
 * so the words SPEC quotes are always there and the user still learns why.
 */
export function failureText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.detail
    ? `${fallback}: ${error.detail}`
    : errorMessage(error, fallback);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain value is sent as JSON; FormData is sent as multipart. */
  body?: unknown;
  /** Query string values; undefined and null are left out. */
  query?: Record<string, string | number | boolean | null | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** false: send no token (sign-in). */
  auth?: boolean;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, query, signal, auth = true } = options;
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const token = auth ? getSession()?.token : undefined;
  if (token) headers.authorization = `Bearer ${token}`;

  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  let url = `${API_BASE}${path}`;
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
    }
    const text = params.toString();
    if (text) url += `${url.includes('?') ? '&' : '?'}${text}`;
  }

  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { method, headers, body: payload, signal });
    text = await response.text();
  } catch (failure) {
    // A request the screen cancelled (it went away) is not a failure to report.
    if (signal?.aborted) throw failure;
    throw new NetworkError(failure);
  }
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!response.ok) {
    const detail =
      data && typeof data === 'object' && typeof (data as { detail?: unknown }).detail === 'string'
        ? (data as { detail: string }).detail
        : null;
    // A refused token (expired, password changed, account deactivated) ends the session; the
    // root router then shows /login with the message. A failed sign-in sends no token.
    if (response.status === 401 && token) clearSession(SESSION_EXPIRED_MESSAGE);
    if (GATEWAY_STATUSES.has(response.status) && detail === null) throw new NetworkError();
    throw new ApiError(response.status, detail, data);
  }
  return data as T;
}

type BodyOptions = Omit<RequestOptions, 'method' | 'body'>;

export const api = {
  get: <T>(path: string, options?: BodyOptions) => apiRequest<T>(path, options),
  post: <T>(path: string, body?: unknown, options?: BodyOptions) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: BodyOptions) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: BodyOptions) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: BodyOptions) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
