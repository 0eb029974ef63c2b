// The status webhooks of an accepted send: which statuses its outcome produces, in what order,
// and the `messages` webhook body that carries each one.
import { randomBytes } from 'node:crypto';
import { webhookError, type WebhookError } from './errors.ts';
import type { Outcome } from './outcomes.ts';

export type StatusName = 'sent' | 'delivered' | 'read' | 'failed';

/** One status of one message, as the `statuses` array holds it. */
export interface MessageStatus {
  id: string;
  status: StatusName;
  timestamp: string;
  recipient_id: string;
  biz_opaque_callback_data?: string;
  conversation?: { id: string; expiration_timestamp?: string; origin: { type: string } };
  pricing?: { billable: boolean; pricing_model: string; category: string; type: string };
  errors?: WebhookError[];
}

/** The business phone number a webhook speaks for. */
export interface WebhookIdentity {
  businessAccountId: string;
  phoneNumberId: string;
  displayPhoneNumber: string;
}

/** What a scheduled status needs to know of its send. */
export interface StatusSubject {
  wamid: string;
  recipientId: string;
  category: string;
  bizOpaqueCallbackData?: string;
}

/** The statuses an outcome produces, in posting order. */
export function statusSequence(outcome: Outcome): (StatusName | { failed: number })[] {
  switch (outcome.kind) {
    case 'sent':
      return ['sent'];
    case 'delivered':
      return ['sent', 'delivered'];
    case 'failed':
      return [{ failed: outcome.code }];
    case 'out_of_order':
      return ['read', 'delivered'];
    default:
      return ['sent', 'delivered', 'read'];
  }
}

/** One status object; sent and delivered carry the conversation and pricing, as Meta's do. */
export function messageStatus(
  step: StatusName | { failed: number },
  subject: StatusSubject,
  conversationId: string,
  now = Date.now(),
): MessageStatus {
  const status: MessageStatus = {
    id: subject.wamid,
    status: typeof step === 'string' ? step : 'failed',
    timestamp: String(Math.floor(now / 1000)),
    recipient_id: subject.recipientId,
  };
  if (subject.bizOpaqueCallbackData !== undefined) {
    status.biz_opaque_callback_data = subject.bizOpaqueCallbackData;
  }
  if (typeof step !== 'string') {
    status.errors = [webhookError(step.failed)];
  } else if (step === 'sent' || step === 'delivered') {
    const category = subject.category.toLowerCase();
    const expires = String(Math.floor(now / 1000) + 24 * 60 * 60);
    status.conversation = {
      id: conversationId,
      ...(step === 'sent' ? { expiration_timestamp: expires } : {}),
      origin: { type: category },
    };
    status.pricing = { billable: true, pricing_model: 'PMP', category, type: 'regular' };
  }
  return status;
}

/** The `messages` webhook body carrying one status. */
export function statusWebhook(identity: WebhookIdentity, status: MessageStatus) {
  return messagesWebhook(identity, { statuses: [status] });
}

/** A `messages` webhook body of the business phone number, `value` holding what it reports. */
export function messagesWebhook(identity: WebhookIdentity, value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: identity.businessAccountId,
        changes: [
          {
            value: {
              messaging_product: 'whatsapp',
              metadata: {
                display_phone_number: identity.displayPhoneNumber,
                phone_number_id: identity.phoneNumberId,
              },
              ...value,
            },
            field: 'messages',
          },
        ],
      },
    ],
  };
}

/** A message id shaped like Meta's: `wamid.` and an opaque base64 string. */
export function newWamid(): string {
  return `wamid.${randomBytes(30).toString('base64')}`;
}

/** A conversation id shaped like Meta's (hex). */
export function newConversationId(): string {
  return randomBytes(16).toString('hex');
}
