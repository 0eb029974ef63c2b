// The business account's message templates: synced from the Cloud API into whatsapp_templates,
// kept current between syncs by Meta's template status webhooks, switched on and off for clients
// by the admin, and the ones clients may send with.
import {
  APPROVED,
  TEMPLATE_MESSAGES,
  templateStatusLabel,
  templateView,
  unsupportedPart,
  type ClientTemplate,
  type Template,
} from '#common/templates.ts';
import { missingForCloudApi } from '#common/delivery.ts';
import { isoAt, jsonText, now, reportedAt, type Db, type DbHandle } from '#server/db/connection.ts';
import type { WhatsappTemplatesTable } from '#server/db/schema.ts';
import { forUpdate, transact, type Tx } from '#server/db/transaction.ts';
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

/**
 * Why a client may not send with template `id`: Meta's status when the admin offers it but Meta
 * no longer approves it (a pause), else that it is not offered, naming nothing the client was not
 * shown.
 */
export async function notOfferedReason(db: Db, id: string): Promise<string> {
  const row = await db
    .selectFrom('whatsapp_templates')
    .select(['name', 'status'])
    .where('id', '=', id)
    .where('enabled', '=', 1)
    .executeTakeFirst();
  return row && row.status !== APPROVED
    ? TEMPLATE_MESSAGES.notApproved(row.name, templateStatusLabel(row.status))
    : TEMPLATE_MESSAGES.unknown;
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
    // The screen says the sync failed; the detail says why.
    throw new HttpError(502, graphProblem(error, credentials.graph_url));
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
    const before = new Map(
      (await tx.db.selectFrom('whatsapp_templates').select(['id', 'status']).execute()).map(
        (row) => [row.id, row.status],
      ),
    );
    for (const template of fetched) {
      const values = {
        name: template.name,
        language: template.language,
        status: template.status,
        category: template.category,
        components: JSON.stringify(template.components ?? []),
        status_at: syncedAt,
      };
      await tx.db
        .insertInto('whatsapp_templates')
        .values({ id: template.id, ...values, enabled: 0 })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .execute();
      const was = before.get(template.id);
      if (was !== undefined) await followPause(tx, template.id, was, template.status, syncedAt);
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

/**
 * The status each event of Meta's template status webhook (`message_template_status_update`)
 * leaves a template in. The other events leave the status as it was: a FLAGGED template is still
 * approved, and LOCKED, UNLOCKED and UNARCHIVED do not say which status they leave (a sync does).
 */
const STATUS_AFTER_EVENT: Record<string, string> = {
  APPROVED,
  REINSTATED: APPROVED,
  PENDING: 'PENDING',
  REJECTED: 'REJECTED',
  PAUSED: 'PAUSED',
  DISABLED: 'DISABLED',
  IN_APPEAL: 'IN_APPEAL',
  ARCHIVED: 'ARCHIVED',
  PENDING_DELETION: 'PENDING_DELETION',
  DELETED: 'DELETED',
  LIMIT_EXCEEDED: 'LIMIT_EXCEEDED',
};

const TEMPLATE_STATUS_FIELD = 'message_template_status_update';

/** A template's status as one template status webhook reports it, and when it changed. */
interface ReportedTemplateStatus {
  id: string;
  event: string;
  status: string;
  reason: string | null;
  at: string;
}

/** The template statuses a webhook body carries; `receivedAt` stands for a missing entry time. */
function templateStatusesOf(body: unknown, receivedAt: string): ReportedTemplateStatus[] {
  const found: ReportedTemplateStatus[] = [];
  const entries = (body as { entry?: unknown })?.entry;
  for (const entry of Array.isArray(entries) ? entries : []) {
    const { time, changes } = (entry ?? {}) as { time?: unknown; changes?: unknown };
    const at = reportedAt(Number(time) * 1000, receivedAt);
    for (const change of Array.isArray(changes) ? changes : []) {
      const { field, value } = (change ?? {}) as {
        field?: unknown;
        value?: Record<string, unknown>;
      };
      const id = value?.message_template_id;
      const event = String(value?.event);
      const status = STATUS_AFTER_EVENT[event];
      if (field !== TEMPLATE_STATUS_FIELD || !status) continue;
      if (typeof id !== 'string' && typeof id !== 'number') continue;
      const reason = typeof value?.reason === 'string' ? value.reason.slice(0, 200) : null;
      found.push({ id: String(id), event, status, reason, at });
    }
  }
  return found;
}

/**
 * Applies Meta's template status webhooks among the kept `events`, in the transaction that marks
 * them applied: a template moves to the status its event leaves it in, unless the row already
 * knows a later one (a newer webhook or a sync), so webhooks retried late or out of order never
 * undo a newer status. `enabled` stays: a paused template leaves the clients' list and comes back
 * when Meta approves it again. Templates Sebar has not synced are left to the next sync.
 */
export async function applyTemplateStatuses(
  tx: Tx,
  events: readonly { body: string; received_at: string }[],
): Promise<void> {
  for (const event of events) {
    if (!event.body.includes(TEMPLATE_STATUS_FIELD)) continue;
    let body: unknown;
    try {
      body = JSON.parse(event.body);
    } catch {
      continue;
    }
    for (const reported of templateStatusesOf(body, event.received_at)) {
      await applyTemplateStatus(tx, reported);
    }
  }
}

const secondOf = (at: string) => Math.floor(Date.parse(at) / 1000);

/** Meta's refusals of a send that name the template's status: paused (132015), disabled (132016). */
const REFUSED_TEMPLATE_STATUS: Record<number, string> = { 132015: 'PAUSED', 132016: 'DISABLED' };

/** Whether a send refused with `code` tells its template's status. */
export const refusalNamesTemplate = (code: number | null) =>
  code !== null && REFUSED_TEMPLATE_STATUS[code] !== undefined;

/**
 * A send refused because Meta paused or disabled its template tells that status before (or
 * without) the template's webhook: it is applied like one, at the time of the refusal.
 */
export async function applyTemplateRefusal(
  tx: Tx,
  templateId: string,
  code: number,
  at: string,
): Promise<void> {
  const status = REFUSED_TEMPLATE_STATUS[code];
  if (!status) return;
  await applyTemplateStatus(tx, {
    id: templateId,
    event: status,
    status,
    reason: `send refused with ${code}`,
    at,
  });
}

async function applyTemplateStatus(tx: Tx, reported: ReportedTemplateStatus): Promise<void> {
  const row = await forUpdate(
    tx,
    tx.db.selectFrom('whatsapp_templates').selectAll().where('id', '=', reported.id),
  ).executeTakeFirst();
  // Meta's webhook times are whole seconds: one from the second of the last sync still applies.
  if (!row || secondOf(row.status_at) > secondOf(reported.at)) return;
  await tx.db
    .updateTable('whatsapp_templates')
    .set({ status: reported.status, status_at: reported.at })
    .where('id', '=', reported.id)
    .execute();
  if (row.status === reported.status) return;
  await followPause(tx, reported.id, row.status, reported.status, reported.at);
  await recordAudit(tx.db, {
    actorId: null,
    action: 'template.status',
    targetType: 'whatsapp_template',
    targetId: reported.id,
    before: { name: row.name, language: row.language, status: row.status },
    after: {
      name: row.name,
      language: row.language,
      status: reported.status,
      event: reported.event,
      reason: reported.reason,
    },
  });
}

/** Meta's refusal of a send whose template is paused: the numbers it holds carry it. */
const TEMPLATE_PAUSED = { error_code: 132015, error_title: 'Template is Paused' };

/**
 * How long the numbers of a paused template wait before they are tried again when no webhook or
 * sync says the pause is over (Meta pauses a template for 3 hours, then 6): a missed webhook
 * never holds them for good.
 */
const TEMPLATE_HOLD_MS = 60 * 60 * 1000;

/** When a number held at `atMs` for its paused template is tried again at the latest. */
export const heldUntil = (atMs: number) => Math.max(atMs, Date.now()) + TEMPLATE_HOLD_MS;

/** The Cloud API blasts still being sent with template `templateId`. */
const pendingBlastsWith = (tx: Tx, templateId: string) =>
  tx.db
    .selectFrom('blasts')
    .select('id')
    .where('status', '=', 'pending')
    .where('delivery_mode', '=', 'cloud_api')
    .where(jsonText(tx.engine, 'template', 'id'), '=', templateId);

/**
 * A template's queued numbers follow its pause (decision 222): once it is paused they wait, not
 * sent (Meta would refuse them) and not failed; once it leaves the pause, whatever its new status,
 * the held ones are due at once and their next send tells what Meta says now.
 */
async function followPause(tx: Tx, templateId: string, from: string, to: string, at: string) {
  if (from === to || (from !== 'PAUSED' && to !== 'PAUSED')) return;
  const numbers = tx.db
    .updateTable('blast_numbers')
    .where('state', '=', 'queued')
    .where('blast_id', 'in', pendingBlastsWith(tx, templateId));
  if (to === 'PAUSED') {
    const until = isoAt(heldUntil(Date.parse(at)));
    await numbers.set({ ...TEMPLATE_PAUSED, next_attempt_at: until }).execute();
  } else {
    await numbers
      .set({ next_attempt_at: now() })
      .where('error_code', '=', TEMPLATE_PAUSED.error_code)
      .execute();
  }
}
