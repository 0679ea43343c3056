// Durable push acknowledgements per second and latency (p50/p99) at 1 and 32 concurrent connections, against a
// bare Fastify route answering the same acknowledgement with no auth and no database, in the same run.
// Run: npm run bench:push   (writes its section of bench/RESULTS.md)
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { join } from 'node:path';
import { openDatabase } from '../src/main/db/database';
import { ACKNOWLEDGEMENT } from '../src/main/push/ingest';
import { startPushReceiver } from '../src/main/push/receiver';
import { tempDir } from '../test/support/tempDir';
import { fixtureText } from '../test/support/fixtures';
import { machineLine, writeSection } from './results';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const template = JSON.parse(fixtureText('push-message-244.json')) as Record<string, unknown>;
const auth = `Basic ${Buffer.from('bench:bench-password').toString('base64')}`;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, connections: number, headers: Record<string, string>): Promise<Figures> {
  let n = 0;
  const result = await autocannon({
    url,
    connections,
    duration: SECONDS,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    // Every request is a new message (a fresh messageid), so each one is a real durable insert.
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ ...template, messageid: `bench-${process.pid}-${n++}`, threadid: `t-${n % 500}` }),
        }),
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

async function main() {
  const dir = tempDir('innkeeper-bench-');
  const database = openDatabase(join(dir.path, 'innkeeper.db'));
  const receiver = await startPushReceiver({
    database,
    port: 0,
    credentials: () => [{ username: 'bench', password: 'bench-password' }],
  });
  const bare = Fastify();
  bare.post('/push', async () => ACKNOWLEDGEMENT);
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/push`;

  const rows: string[] = [];
  for (const connections of [1, 32]) {
    const durable = await load(receiver.localUrl, connections, { authorization: auth });
    const plain = await load(bareUrl, connections, {});
    const ratio = durable.rps / plain.rps;
    console.log(
      `${connections} conn: durable ${durable.rps.toFixed(0)}/s p50 ${durable.p50} ms p99 ${durable.p99} ms | bare ${plain.rps.toFixed(0)}/s p50 ${plain.p50} ms p99 ${plain.p99} ms | ratio ${(ratio * 100).toFixed(1)} %`,
    );
    if (durable.errors || durable.non2xx) console.log(`  durable errors ${durable.errors}, non-2xx ${durable.non2xx}`);
    rows.push(
      `| ${connections} | ${durable.rps.toFixed(0)} | ${durable.p50} | ${durable.p99} | ${plain.rps.toFixed(0)} | ${plain.p50} | ${plain.p99} | ${(ratio * 100).toFixed(1)} % |`,
    );
  }
  const stored = (database.db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
  writeSection(
    'push',
    `## Push receiver: durable acknowledgements (\`npm run bench:push\`)

${machineLine()}; ${SECONDS} s per run; every request a new 244 message (fixture body, fresh messageid), Basic auth,
raw log + parse + store + FTS index committed with \`synchronous=FULL\` on a real file before the answer. The bare
route answers the same acknowledgement with no auth and no database, in the same run.

| connections | durable req/s | p50 ms | p99 ms | bare req/s | p50 ms | p99 ms | durable / bare |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

Messages stored during the run: ${stored}. Each acknowledgement waits for its own fsync-backed commit (one commit
per push, no batching), so the durable figure is bounded by the disk's sync latency, not by Fastify.`,
  );
  await receiver.close();
  await bare.close();
  database.close();
  dir.remove();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
