// The delivery settings form: fields as typed, converted and checked by the shared schema, so the
// messages are the server's. A secret left blank keeps the saved one.
import { DeliveryInputSchema, DELIVERY_MODES, type DeliverySettings } from '#common/delivery.ts';
import { z } from '#common/zod.ts';
import { toNumber, viaForm } from '#client/lib/form-schema.ts';

const secret = z.string().transform((text) => (text.trim() === '' ? undefined : text));

export const DeliveryFormSchema = viaForm(
  z.object({
    mode: z.enum(DELIVERY_MODES),
    cloud_api: z
      .object({
        graph_url: z.string(),
        api_version: z.string(),
        phone_number_id: z.string(),
        business_account_id: z.string(),
        access_token: secret,
        app_secret: secret,
        verify_token: secret,
        messages_per_second: z.string(),
        daily_recipient_limit: z.string(),
      })
      .transform(({ messages_per_second, daily_recipient_limit, ...fields }) => ({
        ...fields,
        messages_per_second: toNumber(messages_per_second),
        daily_recipient_limit: toNumber(daily_recipient_limit) ?? null,
      })),
    gateway: z
      .object({
        provider: z.literal('waha'),
        base_url: z.string(),
        api_key: secret,
        session: z.string(),
        webhook_secret: secret,
        min_delay_seconds: z.string(),
        max_delay_seconds: z.string(),
        daily_limit_per_device: z.string(),
        sending_hours: z.string(),
        check_numbers: z.boolean(),
      })
      .transform(({ min_delay_seconds, max_delay_seconds, daily_limit_per_device, ...fields }) => ({
        ...fields,
        min_delay_seconds: toNumber(min_delay_seconds),
        max_delay_seconds: toNumber(max_delay_seconds),
        daily_limit_per_device: toNumber(daily_limit_per_device),
      })),
  }),
  DeliveryInputSchema,
);
export type DeliveryForm = z.input<typeof DeliveryFormSchema>;

/** The form's fields for saved settings: secrets start blank (they are never sent back). */
export function deliveryFormValues({ mode, cloud_api, gateway }: DeliverySettings): DeliveryForm {
  return {
    mode,
    gateway: {
      provider: gateway.provider,
      base_url: gateway.base_url,
      api_key: '',
      session: gateway.session,
      webhook_secret: '',
      min_delay_seconds: String(gateway.min_delay_seconds),
      max_delay_seconds: String(gateway.max_delay_seconds),
      daily_limit_per_device: String(gateway.daily_limit_per_device),
      sending_hours: gateway.sending_hours,
      check_numbers: gateway.check_numbers,
    },
    cloud_api: {
      graph_url: cloud_api.graph_url,
      api_version: cloud_api.api_version,
      phone_number_id: cloud_api.phone_number_id,
      business_account_id: cloud_api.business_account_id,
      access_token: '',
      app_secret: '',
      verify_token: '',
      messages_per_second: String(cloud_api.messages_per_second),
      daily_recipient_limit:
        cloud_api.daily_recipient_limit === null ? '' : String(cloud_api.daily_recipient_limit),
    },
  };
}
