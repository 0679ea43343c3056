import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createConfSettings } from '../../src/main/config/settings';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { eventually } from '../support/eventually';
import { tempDir } from '../support/tempDir';

// The listener's port taken by another program: on the demo Innkeeper listens on a free port instead and says so,
// and the demo's deliveries arrive; with a real account it keeps the port set (the one registered with Su) and says
// it is taken.

let ctx: Awaited<ReturnType<typeof startTestCore>> | null = null;
let other: Server | null = null;
afterEach(async () => {
  await ctx?.stop();
  ctx = null;
  await new Promise((resolve) => (other ? other.close(resolve) : resolve(undefined)));
  other = null;
});
const { call } = contractClient(() => ctx!.core.dispatcher);
const sandbox = {
  environment: 'sandbox' as const,
  mainBaseUrl: 'https://a.example/SUAPI',
  tokenBaseUrl: 'https://b.example',
  domain: 'x.example',
};
const demo = { environment: 'demo' as const, domain: 'demo.innkeeper.test' };

/** Another program listening on a port of 127.0.0.1: the port. */
async function occupyPort(): Promise<number> {
  other = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => other!.listen(0, '127.0.0.1', resolve));
  return (other.address() as { port: number }).port;
}

/** A data folder whose saved settings put the listener on `port` (no INNKEEPER_PUSH_PORT). */
function dataDirWithPort(port: number): string {
  const dir = tempDir();
  createConfSettings(dir.path).set('push.port', port);
  return dir.path;
}
const portOf = (url: string | null) => (url ? Number(new URL(url).port) : null);

describe('a demo whose port is taken', () => {
  it('listens on a free port, says why, and its sample inbox arrives; a real account keeps the port set', async () => {
    const taken = await occupyPort();
    ctx = await startTestCore({
      dataDir: dataDirWithPort(taken),
      // The listener's own port is what this is about: the demo delivers to it (not to a mailbox of its own).
      demoRun: { deliveries: true, mailbox: false, everydayEveryMs: [3_600_000, 3_600_000] },
      coreOptions: { intakeEnv: {} },
    });
    const status = await call('intake.status');
    expect(status).toMatchObject({ listening: true, error: null, port: taken });
    const standIn = portOf(status.localUrl)!;
    expect(standIn).not.toBe(taken);
    expect(status.portNote).toBe(
      `Port ${taken} is taken by another program, so the demo listens on port ${standIn} instead. With your own Su account, Innkeeper receives on the port you set.`,
    );
    // The demo delivers wherever the listener is: its sample inbox fills the inbox.
    const page = await eventually(
      () => call('inbox.threads', { limit: 50 }),
      (p) => p.total >= 6,
    );
    expect(page.total).toBeGreaterThanOrEqual(6);
    expect((await call('intake.status')).demoConnected).toBe(true);

    // A real account: the port set is the one Su delivers to (through the owner's tunnel or proxy), so it is kept,
    // and the screen says it is taken.
    await call('connection.save', sandbox);
    const real = await eventually(
      () => call('intake.status'),
      (s) => !s.listening,
    );
    expect(real).toMatchObject({ listening: false, port: taken, portNote: null, localUrl: null });
    expect(real.error).toContain(`Port ${taken} is already used by another program`);

    // Back on the demo: a free port again.
    await call('connection.save', { ...demo, secrets: { clientSecret: 'demo-client-secret' } });
    const again = await eventually(
      () => call('intake.status'),
      (s) => s.listening,
    );
    expect(again.portNote).toContain(`Port ${taken} is taken by another program`);
    expect(portOf(again.localUrl)).not.toBe(taken);
  });

  it('once the port is free again, saving the settings puts the demo back on it', async () => {
    const taken = await occupyPort();
    ctx = await startTestCore({ dataDir: dataDirWithPort(taken), coreOptions: { intakeEnv: {} } });
    const status = await call('intake.status');
    expect(status.portNote).not.toBeNull();
    await new Promise((resolve) => other!.close(resolve));
    other = null;
    const saved = await call('intake.save', { port: taken, username: 'su-partner', password: 'kX7-pq2Lm9wR4tZs8vBn' });
    expect(saved).toMatchObject({ listening: true, portNote: null, port: taken });
    expect(portOf(saved.localUrl)).toBe(taken);
  });
});
