// The Graph API error answers and the webhook error objects of the WhatsApp Cloud API, built from
// one catalogue of the codes this double uses (Meta's "WhatsApp error codes" page).
import { randomBytes } from 'node:crypto';

/** One documented code: its title (the start of `message`), the usual details, the HTTP status. */
interface ErrorCodeInfo {
  title: string;
  details: string;
  httpStatus: number;
  type?: string;
}

const ERROR_CODES_URL =
  'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/';

/** The codes a send can meet, synchronously or in a failed status. */
export const ERROR_CODES: Record<number, ErrorCodeInfo> = {
  1: { title: 'API Unknown', details: 'An unknown error occurred', httpStatus: 400 },
  2: { title: 'API Service', details: 'Service temporarily unavailable', httpStatus: 503 },
  100: { title: 'Invalid parameter', details: 'Invalid parameter', httpStatus: 400 },
  190: {
    title: 'Invalid OAuth access token - Cannot parse access token',
    details: 'The access token is missing, expired or invalid',
    httpStatus: 401,
  },
  368: {
    title: 'Temporarily blocked for policies violations',
    details: 'The WhatsApp Business Account is restricted from sending messages',
    httpStatus: 403,
  },
  130429: {
    title: 'Rate limit hit',
    details: 'Cloud API message throughput has been reached.',
    httpStatus: 400,
  },
  130472: {
    title: "User's number is part of an experiment",
    details: "Failed to send message because this user's phone number is part of an experiment",
    httpStatus: 400,
  },
  131000: { title: 'Something went wrong', details: 'Something went wrong', httpStatus: 500 },
  131008: {
    title: 'Required parameter is missing',
    details: 'The request is missing a required parameter',
    httpStatus: 400,
  },
  131009: {
    title: 'Parameter value is not valid',
    details: 'One or more parameter values are invalid',
    httpStatus: 400,
  },
  131026: {
    title: 'Message undeliverable',
    details: 'Message Undeliverable.',
    httpStatus: 400,
  },
  131047: {
    title: 'Re-engagement message',
    details:
      'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
    httpStatus: 400,
  },
  131048: {
    title: 'Spam rate limit hit',
    details:
      'Message failed to send because there are restrictions on how many messages can be sent from this phone number.',
    httpStatus: 400,
  },
  131049: {
    title: 'This message was not delivered to maintain healthy ecosystem engagement.',
    details:
      'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.',
    httpStatus: 400,
  },
  131050: {
    title:
      'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.',
    details: 'The recipient has stopped marketing messages from this business.',
    httpStatus: 400,
  },
  131053: {
    title: 'Media upload error',
    details: 'Unable to upload the media used in the message.',
    httpStatus: 400,
  },
  131056: {
    title: '(Business Account, Consumer Account) pair rate limit hit',
    details:
      'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.',
    httpStatus: 400,
  },
  132000: {
    title: 'Number of parameters does not match the expected number of params',
    details: 'The number of parameters does not match the template',
    httpStatus: 400,
  },
  132001: {
    title: 'Template name does not exist in the translation',
    details: 'The template does not exist in the specified language or is not approved',
    httpStatus: 404,
  },
  132015: {
    title: 'Template is Paused',
    details: 'Template is paused due to low quality so it cannot be sent in a template message.',
    httpStatus: 400,
  },
  132016: {
    title: 'Template is Disabled',
    details:
      'Template has been paused too many times due to low quality and is now permanently disabled.',
    httpStatus: 400,
  },
  132012: {
    title: 'Parameter format does not match format in the created template',
    details: 'Variable parameter values formatted incorrectly',
    httpStatus: 400,
  },
  132018: {
    title: 'There was an issue with the parameters in your template.',
    details: 'Param text cannot have new-line/tab characters or more than 4 consecutive spaces',
    httpStatus: 400,
  },
};

/** A Graph API error answer: the HTTP status and the JSON body. */
export interface GraphError {
  status: number;
  body: {
    error: {
      message: string;
      type: string;
      code: number;
      error_data?: { messaging_product: 'whatsapp'; details: string };
      error_subcode?: number;
      fbtrace_id: string;
    };
  };
}

/** A fresh trace id like Meta's (an opaque string support asks for). */
export function fbtraceId(): string {
  return randomBytes(12).toString('base64url');
}

function info(code: number): ErrorCodeInfo {
  return ERROR_CODES[code] ?? { title: 'Unknown error', details: 'Unknown error', httpStatus: 400 };
}

/**
 * The Graph error for a WhatsApp code: `message` is "(#code) title", `error_data.details` the
 * explanation. Token errors carry no error_data, as the Graph API answers them.
 */
export function graphError(
  code: number,
  details?: string,
  extra: { message?: string; type?: string; subcode?: number } = {},
): GraphError {
  const known = info(code);
  const error: GraphError['body']['error'] = {
    // Token errors say their title alone; the WhatsApp codes prefix it with "(#code)".
    message: extra.message ?? (code === 190 ? known.title : `(#${code}) ${known.title}`),
    type: extra.type ?? known.type ?? 'OAuthException',
    code,
    fbtrace_id: fbtraceId(),
  };
  if (code !== 190) {
    error.error_data = { messaging_product: 'whatsapp', details: details ?? known.details };
  }
  if (extra.subcode !== undefined) error.error_subcode = extra.subcode;
  return { status: known.httpStatus, body: { error } };
}

/** The answer for a node id the token cannot see (the Graph API's code 100, subcode 33). */
export function unknownObjectError(id: string, method: 'get' | 'post'): GraphError {
  const message =
    `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to ` +
    'missing permissions, or does not support this operation. Please read the Graph API ' +
    'documentation at https://developers.facebook.com/docs/graph-api';
  return {
    status: 400,
    body: {
      error: {
        message,
        type: 'GraphMethodException',
        code: 100,
        error_subcode: 33,
        fbtrace_id: fbtraceId(),
      },
    },
  };
}

/** The error object of a failed status in a webhook. */
export interface WebhookError {
  code: number;
  title: string;
  message: string;
  error_data: { details: string };
  href: string;
}

export function webhookError(code: number): WebhookError {
  const known = info(code);
  return {
    code,
    title: known.title,
    message: known.title,
    error_data: { details: known.details },
    href: ERROR_CODES_URL,
  };
}
