// The page latency of the delivery figures (bench/delivery.ts), measured by a process of its own:
// the local Cloud API runs in the bench's process and answers 80 sends and posts 240 signed
// webhooks a second there, and a sample taken on that event loop would wait behind them. Run on
// the load's CPU. Input: BENCH_SAMPLER (JSON of SamplerInput). Requests the page, one at a time
// and `gapMs` apart (after `warmup` unmeasured ones), until `samples` were measured or `until`
// (epoch ms) has passed, and prints {p50, p95, p99, n} in ms.
import http from 'node:http';
import { latencies } from './stats.ts';

export interface SamplerInput {
  url: string;
  token: string;
  warmup: number;
  samples: number;
  gapMs: number;
  /** Epoch ms: no sample is measured before it. */
  from: number;
  /** Epoch ms: no sample is started after it. */
  until: number | null;
}

const input = JSON.parse(process.env.BENCH_SAMPLER ?? '{}') as SamplerInput;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function get(): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      input.url,
      { agent, headers: { authorization: `Bearer ${input.token}` } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
  });
}

for (let i = 0; i < input.warmup; i += 1) await get();
await sleep(Math.max(0, input.from - Date.now()));
const times: number[] = [];
while (times.length < input.samples && (input.until === null || Date.now() < input.until)) {
  const started = performance.now();
  const status = await get();
  const ms = performance.now() - started;
  if (status !== 200) throw new Error(`GET ${input.url} answered ${status}`);
  times.push(ms);
  await sleep(Math.max(0, input.gapMs - ms));
}
agent.destroy();
process.stdout.write(`${JSON.stringify({ ...latencies(times), n: times.length })}\n`);
