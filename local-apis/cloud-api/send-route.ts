// `POST /{version}/{phone_number_id}/messages`: validates a template send as Meta does, applies
// the scripted outcome and the limits, records it and schedules its status webhooks.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hold } from '#local-apis/shared/hold.ts';
import { sendError, type DoubleContext, type RecordedSend } from './context.ts';
import { graphError, unknownObjectError } from './errors.ts';
import type { Outcome } from './outcomes.ts';
import { schemaError, SendMessageRequest, waId } from './protocol.ts';
import {
  messageStatus,
  newConversationId,
  newWamid,
  statusSequence,
  statusWebhook,
} from './statuses.ts';
import { checkTemplateSend } from './template-check.ts';
import type { MessageTemplate } from './templates.ts';

type SendRequest = FastifyRequest<{ Params: { version: string; id: string } }>;

export async function handleSend(ctx: DoubleContext, request: SendRequest, reply: FastifyReply) {
  const { id } = request.params;
  if (id !== ctx.options.phoneNumberId) return sendError(reply, unknownObjectError(id, 'post'));
  const parsed = SendMessageRequest.safeParse(request.body);
  if (!parsed.success) return sendError(reply, schemaError(parsed.error, request.body));
  const check = checkTemplateSend(parsed.data, ctx.options.templates);
  if (!check.ok) return sendError(reply, check.error);

  const to = waId(parsed.data.to);
  const scripted = ctx.outcomes.forSend(to);
  if (scripted.kind === 'reject') return sendError(reply, graphError(scripted.code));
  if (scripted.kind === 'http_500') return sendError(reply, graphError(131000));
  const limitError = ctx.limits.check(to);
  if (limitError) return sendError(reply, limitError);

  const outcome = withMediaFailure(ctx, parsed.data, scripted);
  const send = accept(ctx, parsed.data, check.template, outcome);
  const answer = {
    messaging_product: 'whatsapp',
    contacts: [{ input: parsed.data.to, wa_id: to }],
    messages: [{ id: send.wamid, message_status: 'accepted' }],
  };
  if (outcome.kind === 'lost_answer') {
    // The send happened; only its answer is lost, as when a connection drops mid-request.
    reply.hijack();
    request.raw.socket.destroy();
    return reply;
  }
  if (outcome.kind === 'bad_gateway') {
    // The send happened; a proxy between the caller and Meta answers with its own error page.
    return reply.code(502).type('text/html').send('<html><body>502 Bad Gateway</body></html>');
  }
  if (outcome.kind === 'timeout') await hold(ctx.holds, outcome.ms ?? ctx.options.timeoutMs);
  return reply.code(200).send(answer);
}

/**
 * A header given by the id of a media this double never received is accepted, then fails with
 * 131053 (media upload error), as Meta's does; the outcomes about the answer itself stay.
 */
function withMediaFailure(ctx: DoubleContext, request: SendMessageRequest, outcome: Outcome) {
  if (['timeout', 'lost_answer', 'bad_gateway'].includes(outcome.kind)) return outcome;
  const header = request.template.components?.find((c) => c.type === 'header');
  const parameter = header?.parameters?.[0];
  const media =
    parameter?.type === 'image'
      ? parameter.image
      : parameter?.type === 'video'
        ? parameter.video
        : parameter?.type === 'document'
          ? parameter.document
          : undefined;
  const missing = media?.id !== undefined && !ctx.media.has(media.id);
  return missing ? ({ kind: 'failed', code: 131053 } satisfies Outcome) : outcome;
}

/** Records the send, counts it against the limits and schedules its statuses. */
function accept(
  ctx: DoubleContext,
  request: SendMessageRequest,
  template: MessageTemplate,
  outcome: Outcome,
): RecordedSend {
  const to = waId(request.to);
  const send: RecordedSend = {
    to,
    template: template.name,
    language: template.language,
    wamid: newWamid(),
    outcome,
    at: Date.now(),
  };
  if (request.template.components !== undefined) send.components = request.template.components;
  if (request.biz_opaque_callback_data !== undefined) {
    send.biz_opaque_callback_data = request.biz_opaque_callback_data;
  }
  ctx.sends.push(send);
  ctx.limits.record(to);
  scheduleStatuses(ctx, send, template, outcome);
  return send;
}

function scheduleStatuses(
  ctx: DoubleContext,
  send: RecordedSend,
  template: MessageTemplate,
  outcome: Outcome,
): void {
  const subject = {
    wamid: send.wamid,
    recipientId: send.to,
    category: template.category,
    ...(send.biz_opaque_callback_data === undefined
      ? {}
      : { bizOpaqueCallbackData: send.biz_opaque_callback_data }),
  };
  const conversationId = newConversationId();
  const copies = outcome.kind === 'duplicate' ? 2 : 1;
  statusSequence(outcome).forEach((step, index) => {
    const delay = ctx.options.statusDelayMs * (index + 1);
    const status = messageStatus(step, subject, conversationId, Date.now() + delay);
    const payload = statusWebhook(ctx.options, status);
    for (let copy = 0; copy < copies; copy += 1) ctx.webhooks.schedule(payload, delay);
  });
}
