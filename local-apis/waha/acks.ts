// The acks of an accepted send: which ones its outcome produces, in what order, and the
// `message.ack` payload that carries each (docs: "message.ack"; WAMessageAckBody, filled as the
// GOWS engine fills it: `from` is the chat, `to` and `participant` null in a direct chat).
import type { Outcome } from './outcomes.ts';

/** WAHA's ack values and their names (WAMessageAck). */
export const ACK_NAMES: Record<number, string> = {
  [-1]: 'ERROR',
  0: 'PENDING',
  1: 'SERVER',
  2: 'DEVICE',
  3: 'READ',
  4: 'PLAYED',
};

/** The acks an outcome produces, in posting order. */
export function ackSequence(outcome: Outcome): number[] {
  switch (outcome.kind) {
    case 'sent':
      return [1];
    case 'delivered':
      return [1, 2];
    case 'played':
      return [1, 2, 3, 4];
    case 'error':
    case 'not_on_whatsapp':
      return [-1];
    case 'out_of_order':
      return [3, 2];
    default:
      return [1, 2, 3];
  }
}

/** The `message.ack` payload of one ack of the message `id` sent to `chatId`. */
export function ackPayload(id: string, chatId: string, ack: number) {
  const messageId = id.split('_')[2] ?? id;
  return {
    id,
    from: chatId,
    to: null,
    participant: null,
    fromMe: true,
    ack,
    ackName: ACK_NAMES[ack] ?? 'UNKNOWN',
    // The engine's receipt, which WAHA passes on as it is.
    _data: {
      Chat: chatId.replace('@c.us', '@s.whatsapp.net'),
      IsFromMe: false,
      IsGroup: false,
      MessageIDs: [messageId],
      Timestamp: new Date().toISOString(),
      Type: receiptType(ack),
    },
  };
}

/** whatsmeow's receipt type of an ack. */
function receiptType(ack: number): string {
  if (ack === -1) return 'server-error';
  if (ack === 3) return 'read';
  if (ack === 4) return 'played';
  return '';
}
