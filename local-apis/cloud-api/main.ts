// `npm run whatsapp:local`: the local WhatsApp Cloud API as a program, configured by environment
// variables, with outcomes by number suffix (and an optional JSON file of outcomes by number).
import { readFileSync } from 'node:fs';
import { firstOutcome, outcomeBySuffix, parseOutcome, type Outcomes } from './outcomes.ts';
import { startLocalCloudApi } from './server.ts';
import type { LocalCloudApiOptions } from './context.ts';

const API_VERSION = 'v23.0';

/** The outcomes file: `{"6281234567890": "failed:131049", …}`; every value is checked now. */
function readOutcomesFile(path: string): Record<string, string> {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
  for (const value of Object.values(parsed)) parseOutcome(value);
  return parsed;
}

function optionsFromEnv(env: NodeJS.ProcessEnv): Partial<LocalCloudApiOptions> {
  const options: Partial<LocalCloudApiOptions> = {
    port: Number(env.WHATSAPP_LOCAL_PORT ?? 4545),
    webhookUrl: env.WHATSAPP_LOCAL_WEBHOOK_URL ?? 'http://127.0.0.1:8000/api/webhooks/whatsapp',
  };
  const fromEnv = {
    accessToken: env.WHATSAPP_LOCAL_ACCESS_TOKEN,
    appSecret: env.WHATSAPP_LOCAL_APP_SECRET,
    verifyToken: env.WHATSAPP_LOCAL_VERIFY_TOKEN,
    phoneNumberId: env.WHATSAPP_LOCAL_PHONE_NUMBER_ID,
    businessAccountId: env.WHATSAPP_LOCAL_BUSINESS_ACCOUNT_ID,
  };
  for (const [key, value] of Object.entries(fromEnv)) {
    if (value) Object.assign(options, { [key]: value });
  }
  const sources: Outcomes[] = [];
  if (env.WHATSAPP_LOCAL_OUTCOMES) sources.push(readOutcomesFile(env.WHATSAPP_LOCAL_OUTCOMES));
  sources.push(outcomeBySuffix);
  options.outcomes = firstOutcome(...sources);
  return options;
}

const api = await startLocalCloudApi(optionsFromEnv(process.env));
const o = api.options;
console.log(`Local WhatsApp Cloud API listening on ${api.url}

Enter in Sebar's WhatsApp settings:
  graph_url            ${api.url}
  api_version          ${API_VERSION}
  phone_number_id      ${o.phoneNumberId}
  business_account_id  ${o.businessAccountId}
  access_token         ${o.accessToken}
  app_secret           ${o.appSecret}
  verify_token         ${o.verifyToken}

Status webhooks go to ${o.webhookUrl ?? '(none)'}
Outcomes by number suffix: see local-apis/README.md`);

const stop = () => {
  void api.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
