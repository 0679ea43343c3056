import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newPairingCode, PAIRING_VALID_MS } from '../../src/mailbox/pairing';
import { DB_FILE } from '../../src/mailbox/store';
import { PAIRING_CODE_PATTERN } from '../../src/receiving/mailboxProtocol';
import { generateDeviceKeyPair } from '../../src/receiving/sealing';
import { mailboxCalls, runMailboxCommand, spawnMailbox, startTestMailbox } from '../support/mailboxHarness';
import { tempDir } from '../support/tempDir';

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanups.reverse()) await step();
  cleanups = [];
});

async function mailbox(options: Parameters<typeof startTestMailbox>[0] = {}) {
  const t = await startTestMailbox(options);
  cleanups.push(() => t.stop());
  return t;
}

/** A code that is certainly not the one waiting (the waiting one with its last character changed). */
const wrongCode = (code: string) => code.slice(0, -1) + (code.endsWith('0') ? '1' : '0');

describe('pairing codes', () => {
  it('the first start with no device paired makes a code; it pairs one device, once', async () => {
    const t = await mailbox();
    const code = t.mailbox.pairingCode!;
    expect(code).toMatch(PAIRING_CODE_PATTERN);
    const first = await t.pair(code, 'Laptop');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      deviceId: expect.any(String),
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      mailboxId: expect.any(String),
    });
    // Used: the same code pairs nothing more.
    const again = await t.pair(code, 'Office PC');
    expect(again.status).toBe(410);
    expect(again.body).toMatchObject({ error: 'pairing_code_expired' });
    expect(t.mailbox.store.devices().map((d) => d.name)).toEqual(['Laptop']);
    // The token and the code are kept as hashes only; the push password too.
    const file = readFileSync(join(t.dataDir, DB_FILE));
    expect(file.includes(first.device.token)).toBe(false);
    expect(file.includes(code)).toBe(false);
    expect(file.includes(first.device.pushPassword)).toBe(false);
  });

  it('the code as an owner may type it: lower case, without dashes, O for 0', async () => {
    const t = await mailbox();
    const typed = t.mailbox.pairingCode!.toLowerCase().replace(/-/g, ' ').replace(/0/g, 'o');
    expect((await t.pair(typed)).status).toBe(200);
  });

  it('a wrong code is refused with the tries left; after 5 the code is void, the right one too', async () => {
    const t = await mailbox();
    const code = t.mailbox.pairingCode!;
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await t.pair(wrongCode(code)));
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
    expect(answers.map((a) => a.body.triesLeft)).toEqual([4, 3, 2, 1, 0]);
    expect(answers[0]!.body).toMatchObject({
      error: 'pairing_code_wrong',
      message: expect.stringMatching(/4 tries left/),
    });
    const right = await t.pair(code);
    expect(right.status).toBe(403);
    expect(right.body).toMatchObject({
      error: 'pairing_locked',
      message: expect.stringMatching(/npm run mailbox -- pair/),
    });
    expect(t.mailbox.store.devices()).toEqual([]);
    // A new code works again.
    const { code: fresh } = newPairingCode(t.mailbox.store);
    expect((await t.pair(fresh)).status).toBe(200);
  });

  it('a code expires after 15 minutes', async () => {
    let clock = 1_800_000_000_000;
    const t = await mailbox({ now: () => clock });
    const code = t.mailbox.pairingCode!;
    clock += PAIRING_VALID_MS + 1;
    const late = await t.pair(code);
    expect(late.status).toBe(410);
    expect(late.body).toMatchObject({ error: 'pairing_code_expired', message: expect.stringMatching(/15 minutes/) });
    const { code: fresh } = newPairingCode(t.mailbox.store);
    clock += PAIRING_VALID_MS - 1_000;
    expect((await t.pair(fresh)).status).toBe(200);
  });

  it('each field error names the field', async () => {
    const t = await mailbox();
    const good = {
      code: t.mailbox.pairingCode!,
      name: 'Laptop',
      publicKey: generateDeviceKeyPair().publicKey,
      pushUser: 'su-partner',
      pushPassword: 'a long enough password',
    };
    const post = async (body: unknown) => {
      const response = await fetch(`${t.url}/mailbox/pair`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    expect(await post({ ...good, publicKey: 'abc' })).toMatchObject({ status: 400, body: { field: 'publicKey' } });
    expect(await post({ ...good, pushPassword: 'short' })).toMatchObject({
      status: 400,
      body: { field: 'pushPassword', message: expect.stringMatching(/^pushPassword: .*12 characters/) },
    });
    expect(await post({ ...good, pushUser: 'a:b' })).toMatchObject({ status: 400, body: { field: 'pushUser' } });
    expect(await post({ ...good, name: ' ' })).toMatchObject({ status: 400, body: { field: 'name' } });
    expect(await post({ ...good, extra: 1 })).toMatchObject({ status: 400, body: { field: 'extra' } });
    expect(await post('not json')).toMatchObject({ status: 400, body: { message: 'The body must be JSON.' } });
    // None of these used a try nor the code.
    expect((await post(good)).status).toBe(200);
  });
});

describe('the command line', () => {
  it('`pair` prints a code that the running mailbox accepts', async () => {
    const dir = tempDir('innkeeper-mailbox-cli-');
    cleanups.push(() => dir.remove());
    const running = await spawnMailbox(['--port', '0', '--data', dir.path]);
    cleanups.push(async () => {
      running.kill('SIGTERM');
      await running.exited;
    });
    // The first start, with no device paired, printed a code of its own.
    expect(running.output()).toMatch(/pairing code: [0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/);
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const made = await runMailboxCommand(['pair', '--data', dir.path]);
    expect(made.code).toBe(0);
    const code = /pairing code: (\S+)/.exec(made.out)![1]!;
    expect(code).toMatch(PAIRING_CODE_PATTERN);
    const paired = await mailboxCalls(running.url).pair(code, 'Laptop');
    expect(paired.status).toBe(200);
    // It stops cleanly on SIGTERM.
    running.kill('SIGTERM');
    expect(await running.exited).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('bad arguments get a message naming the option', async () => {
    const dir = tempDir('innkeeper-mailbox-args-');
    cleanups.push(() => dir.remove());
    const cases: [string[], RegExp][] = [
      [['--port', '80x', '--data', dir.path], /--port: a port number from 0 to 65535, got "80x"/],
      [['--port', '8080'], /--data: the folder where the mailbox keeps what it receives is required/],
      [['--data', dir.path, '--retention-days', '0'], /--retention-days: a number of days from 1 to 365, got "0"/],
      [['--data', dir.path, '--colour', 'red'], /Unknown option '--colour'/],
      [['pair', '--data', dir.path, '--port', '1'], /--port: not an option of "pair"/],
      [['start', '--data', dir.path], /"start" is not a command of the mailbox/],
      [['--data', dir.path, '--trust-proxy', 'caddy'], /--trust-proxy: the IP address of the reverse proxy .*"caddy"/],
    ];
    for (const [args, message] of cases) {
      const run = await runMailboxCommand(args);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.out, args.join(' ')).toMatch(message);
    }
  }, 60_000);

  it('two mailboxes never share a data folder; a port in use or an address not here is named', async () => {
    const t = await mailbox();
    const second = await runMailboxCommand(['--port', '0', '--data', t.dataDir]);
    expect(second.code).toBe(1);
    expect(second.out).toMatch(/--data: another mailbox \(process \d+\) is using/);
    const other = tempDir('innkeeper-mailbox-port-');
    cleanups.push(() => other.remove());
    const taken = await runMailboxCommand(['--port', String(t.mailbox.port), '--data', other.path]);
    expect(taken.out).toMatch(/--port: port \d+ is already used by another program/);
    const nowhere = await runMailboxCommand(['--port', '0', '--host', '192.0.2.77', '--data', other.path]);
    expect(nowhere.out).toMatch(/--host: this machine has no address 192\.0\.2\.77/);
    expect([taken.code, nowhere.code]).toEqual([1, 1]);
  }, 30_000);
});
