// The bare send loop of the delivery figures (bench/delivery.ts): only template sends POSTed to
// the local Cloud API, as the engine posts them (global fetch, the same headers, body and
// timeout, the answer read and parsed), with no database, pacing or bookkeeping. Run as a child
// on the server's CPU, as the engine runs there. Input: BENCH_BARE (JSON of BareInput). Over its
// IPC channel the parent sends 'go' (keep `concurrency` sends in flight) and 'halt' (let those in
// flight end); the child answers 'halted' with how many sends it made in all.
export interface BareInput {
  /** `{graph_url}/{api_version}/{phone_number_id}/messages` of the local Cloud API. */
  url: string;
  accessToken: string;
  template: { name: string; language: string; parameters: string[] };
  concurrency: number;
}

const input = JSON.parse(process.env.BENCH_BARE ?? '{}') as BareInput;
let running = false;
let sent = 0;
let next = 0;
const workers = new Set<Promise<void>>();

async function sendOne(i: number): Promise<void> {
  const answer = await fetch(input.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${input.accessToken}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: `62899${String(i).padStart(8, '0')}`,
      type: 'template',
      template: {
        name: input.template.name,
        language: { code: input.template.language },
        components: [
          {
            type: 'body',
            parameters: input.template.parameters.map((text) => ({ type: 'text', text })),
          },
        ],
      },
      biz_opaque_callback_data: `bare/${i}`,
    }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = JSON.parse(await answer.text()) as { messages?: { id?: string }[] };
  if (!answer.ok || !body.messages?.[0]?.id) {
    throw new Error(`bare send answered ${answer.status}: ${JSON.stringify(body)}`);
  }
  sent += 1;
}

async function worker(): Promise<void> {
  while (running) await sendOne(next++);
}

process.on('message', (message) => {
  if (message === 'go' && !running) {
    running = true;
    for (let i = 0; i < input.concurrency; i += 1) {
      const work = worker();
      workers.add(work);
      void work.finally(() => workers.delete(work));
    }
  } else if (message === 'halt') {
    running = false;
    void Promise.all([...workers]).then(
      () => process.send!({ halted: true, sent }),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  }
});
process.send!({ ready: true });
