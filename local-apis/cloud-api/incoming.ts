// Messages a WhatsApp user sends to the business, posted as Meta posts them: the `messages`
// webhook with the sender in `contacts` and the message in `messages` (text, a template's
// quick-reply button, or an interactive reply), signed like every other webhook.
import { waId } from './protocol.ts';
import { messagesWebhook, newWamid, type WebhookIdentity } from './statuses.ts';

/** What the user sends: text, a tapped quick-reply button, or an interactive reply. */
export type IncomingContent =
  | { text: string }
  | { button: { text: string; payload?: string } }
  | { buttonReply: { id: string; title: string } };

function messageOf(content: IncomingContent): Record<string, unknown> {
  if ('text' in content) return { type: 'text', text: { body: content.text } };
  if ('button' in content) {
    const { text, payload = text } = content.button;
    return { type: 'button', button: { payload, text } };
  }
  return {
    type: 'interactive',
    interactive: { type: 'button_reply', button_reply: content.buttonReply },
  };
}

/** The webhook body of one incoming message from `from` (a number; its digits are the wa_id). */
export function incomingWebhook(
  identity: WebhookIdentity,
  from: string,
  content: IncomingContent,
  options: { name?: string; now?: number } = {},
) {
  const sender = waId(from);
  return messagesWebhook(identity, {
    contacts: [{ profile: { name: options.name ?? 'Pelanggan' }, wa_id: sender }],
    messages: [
      {
        from: sender,
        id: newWamid(),
        timestamp: String(Math.floor((options.now ?? Date.now()) / 1000)),
        ...messageOf(content),
      },
    ],
  });
}
