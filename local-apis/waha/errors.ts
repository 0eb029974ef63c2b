// WAHA's error answers. WAHA is a NestJS app: its HTTP exceptions answer NestJS's own bodies, and
// anything else (an engine or WhatsApp error) goes through its AllExceptionsFilter as a 500 with
// the serialized exception (src/api/exception.filter.ts; src/core/abc/manager.abc.ts for the
// status check; the 463 body as reported in devlikeapro/waha issues #1992 and #2170).
import { ENVIRONMENT } from './protocol.ts';

/** An answer: the HTTP status and the JSON body. */
export interface WahaError {
  status: number;
  body: unknown;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  422: 'Unprocessable Entity',
};

/** The API key is missing or wrong (passport's failure, through UnauthorizedException). */
export function unauthorized(): WahaError {
  return { status: 401, body: { message: 'Unauthorized', statusCode: 401 } };
}

/** A NestJS HttpException with a message: `{message, error, statusCode}`. */
export function httpError(status: number, message: string | string[]): WahaError {
  return { status, body: { message, error: REASONS[status] ?? 'Error', statusCode: status } };
}

/** What WAHA answers for a session that does not exist or is not running (STOPPED). */
export function sessionNotFound(name: string): WahaError {
  return httpError(
    404,
    `We didn't find a session with name '${name}'.\n` +
      `Please start it first by using POST /api/sessions/${name}/start request`,
  );
}

/** A running session that did not reach the status a call needs within WAHA's wait. */
export function statusNotExpected(name: string, status: string, expected: string[]): WahaError {
  return {
    status: 422,
    body: {
      error: 'Session status is not as expected. Try again later or restart the session',
      session: name,
      status,
      expected,
    },
  };
}

/** The request as the exception filter echoes it. */
export interface RequestEcho {
  path: string;
  method: string;
  body: unknown;
  query: unknown;
}

/**
 * An engine failure: 500 with the gRPC error GOWS threw. `details` is the engine's own text, for
 * WhatsApp's refusals "server returned error <code>".
 */
export function engineError(details: string, request: RequestEcho): WahaError {
  return {
    status: 500,
    body: {
      statusCode: 500,
      timestamp: new Date().toISOString(),
      exception: {
        message: `2 UNKNOWN: ${details}`,
        code: 2,
        details,
        metadata: {},
        name: 'Error',
      },
      request,
      version: ENVIRONMENT,
    },
  };
}

/** WhatsApp refused the send with a numeric code (463 reachout timelock, 475 message capping). */
export function whatsappError(code: number, request: RequestEcho): WahaError {
  return engineError(`server returned error ${code}`, request);
}
