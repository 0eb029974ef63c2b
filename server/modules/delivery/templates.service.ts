// The business account's message templates: synced from the Cloud API into whatsapp_templates,
// switched on and off for clients by the admin, and the ones clients may send with.
import {
  APPROVED,
  templateStatusLabel,
  templateView,
  unsupportedPart,
  type ClientTemplate,
  type Template,
} from '#common/templates.ts';
import { missingForCloudApi } from '#common/delivery.ts';
import { now, type Db, type DbHandle } from '#server/db/connection.ts';
import type { WhatsappTemplatesTable } from '#server/db/schema.ts';
import { forUpdate, transact } from '#server/db/transaction.ts';
import { recordAudit } from '#server/modules/audit/audit.service.ts';
import { HttpError, notFound } from '#server/plugins/errors.ts';
import { GraphError, graphProblem, readTemplates, type GraphTemplate } from './cloud-api.ts';
import { credentialsOf, deliveryView, readDelivery } from './delivery.service.ts';
import type { SecretBox } from './secret-box.ts';

/** A stored row as the admin reads it. */
function adminView(row: WhatsappTemplatesTable): Template {
  const template = parsed(row);
  return {
    ...templateView(template),
    enabled: Boolean(row.enabled),
    unsupported: unsupportedPart(template.components),
  };
}

/** A row clients may send with (enabled and approved, as read), if Sebar can send all of it. */
function sendable(row: WhatsappTemplatesTable): ClientTemplate | undefined {
  const template = parsed(row);
  return unsupportedPart(template.components) === null ? templateView(template) : undefined;
}

/** The row with its components parsed; a row that cannot be parsed reads as no components. */
function parsed(row: WhatsappTemplatesTable) {
  let components: unknown = [];
  try {
    components = JSON.parse(row.components);
  } catch {
    // written by the sync only, so this is not expected: show the template without parts
  }
  return { ...row, components };
}

/** Every synced template, by name and language. */
export async function listTemplates(db: Db): Promise<Template[]> {
  const rows = await db
    .selectFrom('whatsapp_templates')
    .selectAll()
    .orderBy('name')
    .orderBy('language')
    .execute();
  return rows.map(adminView);
}

/** What clients may send with: enabled by the admin, still approved by Meta, sendable by Sebar. */
export async function clientTemplates(db: Db): Promise<ClientTemplate[]> {
  const rows = await db
    .selectFrom('whatsapp_templates')
    .selectAll()
    .where('enabled', '=', 1)
    .where('status', '=', APPROVED)
    .orderBy('name')
    .orderBy('language')
    .execute();
  return rows.flatMap((row) => sendable(row) ?? []);
}

/** One template a client may send with, or undefined. */
export async function clientTemplate(db: Db, id: string): Promise<ClientTemplate | undefined> {
  const row = await db
    .selectFrom('whatsapp_templates')
    .selectAll()
    .where('id', '=', id)
    .where('enabled', '=', 1)
    .where('status', '=', APPROVED)
    .executeTakeFirst();
  return row && sendable(row);
}

/** The account's templates from the Cloud API: 422 while settings are missing, 502 on failure. */
async function fetchTemplates(db: Db, box: SecretBox): Promise<GraphTemplate[]> {
  const delivery = await readDelivery(db, box);
  const credentials = credentialsOf(delivery);
  if (!credentials) {
    const missing = missingForCloudApi(deliveryView(delivery).cloud_api);
    throw new HttpError(422, missing ?? 'Pengaturan Cloud API belum lengkap');
  }
  try {
    return await readTemplates(credentials);
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    const problem = graphProblem(error, credentials.graph_url);
    throw new HttpError(502, `Gagal mengambil template dari WhatsApp Cloud API: ${problem}`);
  }
}

/**
 * Reads the templates from Meta (outside any transaction), then makes the table match: gone ones
 * deleted, the others inserted or updated by Meta's id with `enabled` kept.
 */
export async function syncTemplates(
  database: DbHandle,
  box: SecretBox,
  actorId: string,
): Promise<Template[]> {
  const fetched = await fetchTemplates(database.db, box);
  const syncedAt = now();
  await transact(database, async (tx) => {
    const ids = fetched.map((t) => t.id);
    // Deleted first: a template Meta re-created under a new id keeps its name and language.
    let gone = tx.db.deleteFrom('whatsapp_templates');
    if (ids.length > 0) gone = gone.where('id', 'not in', ids);
    const deleted = await gone.executeTakeFirst();
    for (const template of fetched) {
      const values = {
        name: template.name,
        language: template.language,
        status: template.status,
        category: template.category,
        components: JSON.stringify(template.components ?? []),
        synced_at: syncedAt,
      };
      await tx.db
        .insertInto('whatsapp_templates')
        .values({ id: template.id, ...values, enabled: 0 })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .execute();
    }
    await recordAudit(tx.db, {
      actorId,
      action: 'template.sync',
      targetType: 'whatsapp_templates',
      targetId: '*',
      after: { templates: fetched.length, deleted: Number(deleted.numDeletedRows) },
    });
  });
  return listTemplates(database.db);
}

/** Switches a template on or off for clients; only an approved one may be switched on. */
export async function setTemplateEnabled(
  database: DbHandle,
  id: string,
  enabled: boolean,
  actorId: string,
): Promise<Template> {
  return transact(database, async (tx) => {
    const row = await forUpdate(
      tx,
      tx.db.selectFrom('whatsapp_templates').selectAll().where('id', '=', id),
    ).executeTakeFirst();
    if (!row) throw notFound('Template');
    if (enabled && row.status !== APPROVED) {
      throw new HttpError(
        422,
        `Template ${row.name} belum disetujui Meta (status: ${templateStatusLabel(row.status)}), jadi belum dapat diaktifkan`,
      );
    }
    const unsupported = unsupportedPart(parsed(row).components);
    if (enabled && unsupported) {
      throw new HttpError(
        422,
        `Template ${row.name} memakai ${unsupported}, yang belum dapat dikirim Sebar, jadi belum dapat diaktifkan`,
      );
    }
    const updated = { ...row, enabled: enabled ? 1 : 0 };
    await tx.db
      .updateTable('whatsapp_templates')
      .set({ enabled: updated.enabled })
      .where('id', '=', id)
      .execute();
    await recordAudit(tx.db, {
      actorId,
      action: enabled ? 'template.enable' : 'template.disable',
      targetType: 'whatsapp_template',
      targetId: id,
      before: { name: row.name, language: row.language, enabled: Boolean(row.enabled) },
      after: { name: row.name, language: row.language, enabled },
    });
    return adminView(updated);
  });
}
