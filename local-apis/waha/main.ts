// `npm run waha:local`: the local WAHA as a program, configured by environment variables, with
// outcomes by number suffix (and an optional JSON file of outcomes by number).
import { readFileSync } from 'node:fs';
import type { LocalWahaOptions } from './context.ts';
import { firstOutcome, outcomeBySuffix, parseOutcome, type Outcomes } from './outcomes.ts';
import { startLocalWaha } from './server.ts';

/** The outcomes file: `{"6281234567890": "reject:463", …}`; every value is checked now. */
function readOutcomesFile(path: string): Record<string, string> {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
  for (const value of Object.values(parsed)) parseOutcome(value);
  return parsed;
}

function optionsFromEnv(env: NodeJS.ProcessEnv): Partial<LocalWahaOptions> {
  const sources: Outcomes[] = [];
  if (env.WAHA_LOCAL_OUTCOMES) sources.push(readOutcomesFile(env.WAHA_LOCAL_OUTCOMES));
  sources.push(outcomeBySuffix);
  return {
    port: Number(env.WAHA_LOCAL_PORT ?? 4646),
    apiKey: env.WAHA_LOCAL_API_KEY || 'local-waha-key',
    outcomes: firstOutcome(...sources),
    // Closer to a person's pace than the tests' defaults: a second to show the QR, a new QR
    // every 20 s as WhatsApp Web's, acks a second apart.
    startingMs: 1000,
    qrRefreshMs: 20_000,
    ackDelayMs: 1000,
  };
}

const waha = await startLocalWaha(optionsFromEnv(process.env));
console.log(`Local WAHA listening on ${waha.url}

Enter in Sebar's gateway settings (Pengiriman, mode "gateway", provider "waha"):
  base_url        ${waha.url}
  api_key         ${waha.options.apiKey}
  webhook_secret  any secret: Sebar creates each session with it as the webhooks' hmac.key

Sebar creates the sessions itself, with the webhook http://127.0.0.1:8000/api/webhooks/waha.
Pair a session shown as SCAN_QR_CODE, as a phone scanning its QR would:
  curl -X POST ${waha.url}/_local/sessions/NAME/pair -H 'content-type: application/json' \\
    -d '{"phone": "6281100000001"}'
Sends: ${waha.url}/_local/sends   Outcomes by number suffix: see local-apis/README.md`);

const stop = () => {
  void waha.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
