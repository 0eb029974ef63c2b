// The long crash run: many SIGKILL rounds on each engine (`ROUNDS=200 npm run crash:nightly`);
// CI runs 20 short rounds per engine inside `npm test` (server/crash.test.ts).
import { runCrashRounds } from '#server/test/crash-rounds.ts';
import type { Engine } from '#server/db/connection.ts';
import { seedFrom } from '#server/test/processes.ts';

const rounds = Number(process.env.ROUNDS ?? 200);
const engines = (process.env.ENGINES ?? 'sqlite,postgres').split(',') as Engine[];
const seed = seedFrom('CRASH_SEED', 'crash nightly');

let failed = false;
for (const engine of engines) {
  try {
    const report = await runCrashRounds({
      engine,
      rounds,
      seed,
      log: (line) => console.log(line),
    });
    console.log(`${engine}: ${JSON.stringify(report)}`);
  } catch (error) {
    failed = true;
    console.error(`${engine}: FAILED (seed ${seed}): ${(error as Error).message}`);
  }
}
process.exit(failed ? 1 : 0);
