// How blasts are delivered: the admin's delivery settings, the connection checks (Cloud API, gateway), and
// the delivery queue with the resume of a paused engine.
import {
  ConnectionCheckSchema,
  DeliveryInputSchema,
  DeliveryQueueSchema,
  DeliverySettingsSchema,
} from '#common/delivery.ts';
import type { App, AppContext } from '#server/app-context.ts';
import { currentUser } from '#server/plugins/auth.ts';
import { ErrorSchema } from '#common/auth.ts';
import { checkConnection, readSettings, saveDelivery } from './delivery.service.ts';
import { webhookUrl } from './devices.routes.ts';
import { checkGateway } from './gateway.service.ts';
import { readQueue, resumeEngine } from './queue.service.ts';

const tags = ['delivery'];

export function deliveryRoutes(app: App, context: AppContext) {
  const { database, secrets } = context;
  const { db } = database;
  app.get(
    '/api/admin/delivery',
    { config: { access: 'admin' }, schema: { tags, response: { 200: DeliverySettingsSchema } } },
    () => readSettings(db, secrets),
  );
  app.put(
    '/api/admin/delivery',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        body: DeliveryInputSchema,
        // 502: a new webhook secret could not be given to the devices' WAHA sessions.
        response: { 200: DeliverySettingsSchema, 502: ErrorSchema },
      },
    },
    (request) =>
      saveDelivery(database, secrets, request.body, {
        id: currentUser(request).id,
        webhookUrl: webhookUrl(app, context),
      }),
  );
  app.post(
    '/api/admin/delivery/test',
    { config: { access: 'admin' }, schema: { tags, response: { 200: ConnectionCheckSchema } } },
    () => checkConnection(db, secrets),
  );
  app.post(
    '/api/admin/delivery/gateway/test',
    { config: { access: 'admin' }, schema: { tags, response: { 200: ConnectionCheckSchema } } },
    () => checkGateway(db, secrets),
  );
  app.get(
    '/api/admin/delivery/queue',
    { config: { access: 'admin' }, schema: { tags, response: { 200: DeliveryQueueSchema } } },
    () => readQueue(db),
  );
  app.post(
    '/api/admin/delivery/resume',
    { config: { access: 'admin' }, schema: { tags, response: { 200: DeliveryQueueSchema } } },
    (request) => resumeEngine(database, currentUser(request).id),
  );
}
