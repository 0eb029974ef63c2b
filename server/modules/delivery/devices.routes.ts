// The gateway's devices over HTTP (admin only): the list with live statuses, adding one (its
// WAHA session made with Sebar's webhook), its pairing QR, logout, start, removal, and the
// resume of Sebar's pause.
import { ErrorSchema } from '#common/auth.ts';
import {
  DeviceInputSchema,
  DeviceListSchema,
  DeviceSchema,
  SessionNameSchema,
  WAHA_WEBHOOK_PATH,
} from '#common/delivery.ts';
import { z } from '#common/zod.ts';
import type { App, AppContext } from '#server/app-context.ts';
import { OkSchema } from '#server/http.ts';
import { currentUser } from '#server/plugins/auth.ts';
import {
  addDevice,
  deviceAction,
  deviceQr,
  listDevices,
  removeDevice,
  resumeDevice,
} from './devices.service.ts';

const tags = ['delivery'];
const admin = { access: 'admin' } as const;
const params = z.object({ session: SessionNameSchema });
const BASE = '/api/admin/delivery/devices';
/** 502: WAHA could not be reached or refused the call; `detail` says why, in Indonesian. */
const gatewayError = { 502: ErrorSchema };

/** Sebar's webhook as WAHA is to call it: SEBAR_PUBLIC_URL, else this server on 127.0.0.1. */
export function webhookUrl(app: App, { config }: AppContext): string {
  if (config.publicUrl) return `${config.publicUrl}${WAHA_WEBHOOK_PATH}`;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return `http://127.0.0.1:${port}${WAHA_WEBHOOK_PATH}`;
}

export function devicesRoutes(app: App, context: AppContext) {
  deviceListRoutes(app, context);
  deviceSessionRoutes(app, context);
}

/** The devices, and pairing a new one. */
function deviceListRoutes(app: App, context: AppContext) {
  const { database, secrets } = context;
  app.get(BASE, { config: admin, schema: { tags, response: { 200: DeviceListSchema } } }, () =>
    listDevices(database, secrets),
  );
  app.post(
    BASE,
    {
      config: admin,
      schema: {
        tags,
        body: DeviceInputSchema,
        response: { 201: DeviceSchema, ...gatewayError },
      },
    },
    async (request, reply) => {
      const device = await addDevice(
        database,
        secrets,
        request.body.session,
        webhookUrl(app, context),
        currentUser(request).id,
      );
      return reply.status(201).send(device);
    },
  );
}

/** One device: its pairing code, signing it out or starting it, resuming it, removing it. */
function deviceSessionRoutes(app: App, context: AppContext) {
  const { database, secrets } = context;
  // The PNG itself (an <img> cannot send the token: the screen fetches it and shows a blob).
  app.get(
    `${BASE}/:session/qr`,
    {
      config: admin,
      schema: {
        tags,
        params,
        response: {
          200: z.any().describe('Gambar QR pemasangan (image/png)'),
          409: ErrorSchema,
          ...gatewayError,
        },
      },
    },
    async (request, reply) => {
      const png = await deviceQr(database, secrets, request.params.session);
      return reply.type('image/png').header('cache-control', 'no-store').send(png);
    },
  );
  for (const action of ['logout', 'start'] as const) {
    app.post(
      `${BASE}/:session/${action}`,
      {
        config: admin,
        schema: { tags, params, response: { 200: DeviceSchema, ...gatewayError } },
      },
      (request) =>
        deviceAction(database, secrets, request.params.session, action, {
          id: currentUser(request).id,
          webhookUrl: webhookUrl(app, context),
        }),
    );
  }
  app.post(
    `${BASE}/:session/resume`,
    { config: admin, schema: { tags, params, response: { 200: DeviceSchema } } },
    (request) => resumeDevice(database, request.params.session, currentUser(request).id),
  );
  app.delete(
    `${BASE}/:session`,
    { config: admin, schema: { tags, params, response: { 200: OkSchema, ...gatewayError } } },
    async (request) => {
      await removeDevice(database, secrets, request.params.session, currentUser(request).id);
      return { detail: 'Perangkat dihapus' };
    },
  );
}
