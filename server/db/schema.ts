// Table types of the one schema both engines share. Booleans are 0/1 integers and times are
// UTC ISO 8601 text on both engines, so rows read the same everywhere.

export interface UsersTable {
  id: string;
  username: string;
  email: string;
  password_hash: string;
  role: 'super_admin' | 'client';
  points: number;
  /** Sequence number of the user's latest ledger entry (the chain has no gaps). */
  ledger_seq: number;
  is_active: number;
  token_version: number;
  created_at: string;
  updated_at: string;
}

export interface ContactsTable {
  id: string;
  platform: string;
  value: string;
  is_active: number;
  created_at: string;
}

export interface NotesTable {
  id: string;
  title: string;
  content: string;
  created_at: string;
  updated_at: string;
}

export interface SettingsTable {
  id: number;
  account_number: string;
  account_name: string;
  bank_name: string;
  barcode_url: string | null;
  qr_code_file: string | null;
  qr_data_url: string | null;
  allow_images: number;
  updated_at: string;
}

export interface PricingTiersTable {
  id: string;
  tier_name: string;
  min_points: number;
  max_points: number;
  price_per_point: number;
  created_at: string;
}

export interface PointRequestsTable {
  id: string;
  user_id: string;
  points_requested: number;
  amount_paid: number;
  status: 'pending' | 'approved' | 'rejected';
  payment_proof_url: string | null;
  created_at: string;
  processed_at: string | null;
  processed_by: string | null;
}

export interface BlastsTable {
  id: string;
  user_id: string;
  message: string;
  image_url: string | null;
  total_numbers: number;
  status: 'pending' | 'completed' | 'rejected' | 'cancelled';
  successful_count: number;
  failed_count: number;
  no_wa_count: number;
  /** Points currently refunded for this blast (failed + no WA once completed, all when rejected). */
  refund_points: number;
  points_used: number;
  admin_notes: string | null;
  created_at: string;
  processed_at: string | null;
  /** How the blast is delivered, fixed when it is made (migration 012). */
  delivery_mode: 'manual' | 'cloud_api' | 'gateway';
  /** The template sent, JSON (BlastTemplate); null in manual mode. */
  template: string | null;
  /** Meta's id of the uploaded header image, once uploaded. */
  media_id: string | null;
  /** When that image was uploaded: Meta keeps it 30 days (migration 020). */
  media_uploaded_at: string | null;
  /** The client's numbers the opt-out list left out, uncharged (migration 014). */
  opted_out_count: number;
}

/**
 * A blast's number; in a Cloud API blast also its delivery, the engine's outbox (migration 012).
 * The delivery columns stay null (attempts 0) in manual mode.
 */
export interface BlastNumbersTable {
  blast_id: string;
  idx: number;
  number: string;
  status: 'pending' | 'success' | 'failed' | 'no_wa';
  state: 'queued' | 'sending' | 'sent' | 'delivered' | 'read' | 'failed' | null;
  attempts: number;
  provider_message_id: string | null;
  error_code: number | null;
  error_title: string | null;
  queued_at: string | null;
  sent_at: string | null;
  delivered_at: string | null;
  read_at: string | null;
  failed_at: string | null;
  /** When a queued number may be sent (again). */
  next_attempt_at: string | null;
  /** When a worker took it to send: a number left sending waits for its webhook. */
  claimed_at: string | null;
  /** When its send ended with no answer (a timeout, a reset): its wait counts from then. */
  answer_lost_at: string | null;
  /** The attempt whose message was reported failed, while the number waits to go again. */
  failed_attempt: number | null;
  /** The gateway device (WAHA session) that took it; null in the other modes. */
  device: string | null;
}

export interface PointTransactionsTable {
  id: string;
  user_id: string;
  seq: number;
  type: 'topup' | 'usage' | 'refund' | 'adjustment';
  delta: number;
  balance_after: number;
  description: string;
  point_request_id: string | null;
  blast_id: string | null;
  created_at: string;
}

export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  request_hash: string;
  status_code: number;
  response_body: string;
  created_at: string;
}

export interface UploadsTable {
  name: string;
  kind: 'image' | 'qr';
  mime: string;
  bytes: number;
  user_id: string | null;
  created_at: string;
}

export interface AuditLogTable {
  id: string;
  actor_id: string | null;
  action: string;
  target_type: string;
  target_id: string;
  before_json: string | null;
  after_json: string | null;
  created_at: string;
}

export interface AppSecretsTable {
  name: string;
  value: string;
}

/**
 * Per client: blasts per status, top-up requests per status (total: their points) and ledger
 * entries per type (total: their deltas), kept with every change (db/summary-counts.ts).
 */
export interface SummaryCountsTable {
  user_id: string;
  counter: 'blasts' | 'point_requests' | 'ledger';
  kind: string;
  n: number;
  total: number;
}

/** Signed-out tokens by id, kept until they would have expired (migration 009). */
export interface RevokedTokensTable {
  jti: string;
  user_id: string;
  /** The token's `exp`, seconds since the epoch. */
  expires_at: number;
}

/** How blasts are delivered (migration 011): one row, id 1; absent means manual. */
export interface DeliverySettingsTable {
  id: number;
  mode: 'manual' | 'cloud_api' | 'gateway';
  graph_url: string;
  api_version: string;
  phone_number_id: string;
  business_account_id: string;
  /** Sealed (modules/delivery/secret-box.ts); null: not set. */
  access_token: string | null;
  app_secret: string | null;
  verify_token: string | null;
  messages_per_second: number;
  daily_recipient_limit: number | null;
  updated_at: string;
}

/** The business account's message templates as last synced (migration 011). */
export interface WhatsappTemplatesTable {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  /** Meta's components, JSON. */
  components: string;
  enabled: number;
  /** When the status was last known: the sync's time, or a status webhook's (migration 019). */
  status_at: string;
}

/** Signed webhook deliveries as they came in, kept before they are answered (migration 011). */
export interface WebhookEventsTable {
  id: string;
  body_sha256: string;
  body: string;
  received_at: string;
  /** When the workers take it next: when it came, or later while it waits (migration 017). */
  due_at: string | null;
  processed_at: string | null;
  /** Who posted it: Meta's Cloud API or the WhatsApp gateway (migration 015). */
  source: 'whatsapp' | 'waha';
}

/** The WhatsApp gateway's settings (one row, id 1; secrets sealed; migration 015). */
export interface GatewaySettingsTable {
  id: number;
  provider: 'waha';
  base_url: string;
  api_key: string | null;
  webhook_secret: string | null;
  /** The webhook secret before its last change (sealed), and when it changed. */
  previous_webhook_secret: string | null;
  webhook_secret_changed_at: string | null;
  session: string;
  min_delay_seconds: number;
  max_delay_seconds: number;
  daily_limit_per_device: number;
  /** 'HH:MM-HH:MM', Asia/Jakarta. */
  sending_hours: string;
  check_numbers: number;
  updated_at: string;
}

/** A gateway device: one WAHA session and Sebar's hold on it. */
export interface GatewayDevicesTable {
  session: string;
  phone: string | null;
  push_name: string | null;
  status: 'STOPPED' | 'STARTING' | 'SCAN_QR_CODE' | 'WORKING' | 'FAILED';
  /** When the status was last known: a status event's time, or Sebar's read (migration 021). */
  status_at: string | null;
  /** Sebar's pause (463, 475, a failed send): until when, why (Indonesian) and the code. */
  paused_until: string | null;
  pause_reason: string | null;
  error_code: number | null;
  /** Human pacing: when the device's next send may start. */
  next_send_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The delivery engine's state (one row, id 1) and the next free send slot of all workers. */
export interface DeliveryEngineTable {
  id: number;
  state: 'running' | 'paused' | 'stopped';
  /** Indonesian, for the admin: why it is paused or stopped. */
  reason: string | null;
  error_code: number | null;
  since: string;
  /** A pause ends by itself then; null: until the admin resumes. */
  resume_at: string | null;
  /** The next free send slot of all workers together (decision 218). */
  next_slot_at: string;
  /** The last error Meta reported for the phone number (migration 024): code, title, when. */
  warning_code: number | null;
  warning_title: string | null;
  warning_at: string | null;
  /** When a server last started receiving webhooks (migration 027, decision 265). */
  webhooks_since: string | null;
}

/** The last send to each recipient: the per-recipient gap and the daily unique recipients. */
export interface DeliveryRecipientsTable {
  number: string;
  last_sent_at: string;
}

/** Numbers that receive no more blasts (migration 014), in Sebar's normalised form. */
export interface OptOutsTable {
  number: string;
  source: 'whatsapp' | 'admin';
  /** The message that did it, as sent; null when the admin added the number. */
  keyword: string | null;
  /** 'cloud_api' or 'gateway'; null when the admin added the number. */
  channel: string | null;
  created_at: string;
  /** The admin who added it; null when the number's own message did. */
  created_by: string | null;
}

/** The phone number WAHA knows for a hidden id (`…@lid`), null when it knew none (migration 023). */
export interface WhatsappLidsTable {
  lid: string;
  number: string | null;
  looked_up_at: string;
}

export interface MigrationsTable {
  name: string;
  applied_at: string;
}

export interface Database {
  users: UsersTable;
  contacts: ContactsTable;
  notes: NotesTable;
  settings: SettingsTable;
  pricing_tiers: PricingTiersTable;
  point_requests: PointRequestsTable;
  blasts: BlastsTable;
  blast_numbers: BlastNumbersTable;
  point_transactions: PointTransactionsTable;
  idempotency_keys: IdempotencyKeysTable;
  uploads: UploadsTable;
  audit_log: AuditLogTable;
  app_secrets: AppSecretsTable;
  revoked_tokens: RevokedTokensTable;
  summary_counts: SummaryCountsTable;
  delivery_settings: DeliverySettingsTable;
  whatsapp_templates: WhatsappTemplatesTable;
  webhook_events: WebhookEventsTable;
  delivery_engine: DeliveryEngineTable;
  delivery_recipients: DeliveryRecipientsTable;
  gateway_settings: GatewaySettingsTable;
  gateway_devices: GatewayDevicesTable;
  opt_outs: OptOutsTable;
  whatsapp_lids: WhatsappLidsTable;
  sebar_migrations: MigrationsTable;
}
