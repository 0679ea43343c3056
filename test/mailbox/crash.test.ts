import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureText } from '../support/fixtures';
import { basic, mailboxCalls, spawnMailbox, type TestDevice } from '../support/mailboxHarness';
import { tempDir } from '../support/tempDir';

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanups.reverse()) await step();
  cleanups = [];
});

/** One push on a connection of its own: the status, or null when the connection died (the process was killed). */
function push(url: string, body: string, authorization: string): Promise<number | null> {
  return new Promise((resolve) => {
    const request = httpRequest(`${url}/push`, {
      method: 'POST',
      agent: false,
      headers: { authorization, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      timeout: 10_000,
    });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? null));
      response.on('error', () => resolve(null));
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(null));
    request.end(body);
  });
}

describe('kill -9 of the mailbox during a push load', () => {
  it('20 kills: every acknowledged push is there afterwards, once, and opens with the device’s key', async () => {
    const dir = tempDir('innkeeper-mailbox-crash-');
    cleanups.push(() => dir.remove());
    const data = join(dir.path, 'data');
    const template = JSON.parse(fixtureText('push-message-244.json')) as Record<string, unknown>;
    const bodyOf = (id: string) => JSON.stringify({ ...template, messageid: id, message: `crash test words ${id}` });

    let running = await spawnMailbox(['--port', '0', '--data', data]);
    cleanups.push(async () => {
      running.kill('SIGKILL');
      await running.exited;
    });
    const code = /pairing code: (\S+)/.exec(running.output())![1]!;
    const laptop: TestDevice = (await mailboxCalls(running.url).pair(code, 'Laptop')).device;
    const authorization = basic(laptop.pushUser, laptop.pushPassword);

    const acknowledged = new Set<string>();
    const refused: number[] = [];
    let next = 0;
    for (let round = 0; round < 20; round++) {
      if (round > 0) running = await spawnMailbox(['--port', '0', '--data', data]);
      const url = running.url;
      let dead = false;
      // 6 senders, one push after another each, until the process is gone.
      const sender = async () => {
        while (!dead) {
          const id = `crash-${next++}`;
          const status = await push(url, bodyOf(id), authorization);
          if (status === 200) acknowledged.add(id);
          else if (status === null) dead = true;
          else refused.push(status);
        }
      };
      const senders = Promise.all(Array.from({ length: 6 }, sender));
      // Killed at a moment of its own in each round, pushes on their way.
      await new Promise((resolve) => setTimeout(resolve, 150 + ((round * 137) % 400)));
      running.kill('SIGKILL');
      expect((await running.exited).signal).toBe('SIGKILL');
      dead = true;
      await senders;
    }
    expect(refused).toEqual([]);
    expect(acknowledged.size).toBeGreaterThan(100);

    // Once more up: everything acknowledged is collected, each once, in the order of its sequence numbers.
    running = await spawnMailbox(['--port', '0', '--data', data]);
    const calls = mailboxCalls(running.url);
    const collected = await calls.collect(laptop);
    const ids = collected.map((c) => (JSON.parse(c.text) as { messageid: string }).messageid);
    expect([...acknowledged].filter((id) => !ids.includes(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    const seqs = collected.map((c) => c.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    // The kills show as the gaps between its up periods (the last 20; the running one open).
    const health = await calls.device(laptop.token).get('/mailbox/health');
    const up = health.body.up as { from: number; to: number | null }[];
    expect(up).toHaveLength(20);
    expect(up.at(-1)!.to).toBeNull();
    expect(up.slice(0, -1).every((p) => p.to !== null && p.to >= p.from)).toBe(true);
  }, 180_000);
});
