import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { startMailbox, type MailboxOptions, type RunningMailbox } from '../../src/mailbox/mailbox';
import { newPairingCode } from '../../src/mailbox/pairing';
import { openDelivery, generateDeviceKeyPair, type DeviceKeyPair } from '../../src/receiving/sealing';
import type { DeliveriesAnswer, PairAnswer } from '../../src/receiving/mailboxProtocol';
import { tempDir } from './tempDir';

const root = join(import.meta.dirname, '..', '..');

/** A paired device as the tests hold it: its keys, its token, the push credentials it gave. */
export interface TestDevice extends PairAnswer {
  keys: DeviceKeyPair;
  pushUser: string;
  pushPassword: string;
}

export const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Calls to a mailbox at `url`, as a device or Su would make them. */
export function mailboxCalls(url: string) {
  const json = async (response: Response) => {
    const text = await response.text();
    try {
      return { status: response.status, body: JSON.parse(text) as Record<string, unknown>, headers: response.headers };
    } catch {
      return { status: response.status, body: { text } as Record<string, unknown>, headers: response.headers };
    }
  };
  const calls = {
    async pair(code: string, name = 'Laptop', extra: Partial<{ pushUser: string; pushPassword: string }> = {}) {
      const keys = generateDeviceKeyPair();
      const pushUser = extra.pushUser ?? `su-${name.toLowerCase().replace(/\W/g, '')}`;
      const pushPassword = extra.pushPassword ?? `password of ${name} 1234`;
      const answer = await json(
        await fetch(`${url}/mailbox/pair`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ code, name, publicKey: keys.publicKey, pushUser, pushPassword }),
        }),
      );
      return { ...answer, device: { ...(answer.body as unknown as PairAnswer), keys, pushUser, pushPassword } };
    },
    /** Su's push with a device's credentials (or any given `authorization`). */
    push(body: string, device: Pick<TestDevice, 'pushUser' | 'pushPassword'> | { authorization: string }) {
      const authorization =
        'authorization' in device ? device.authorization : basic(device.pushUser, device.pushPassword);
      return fetch(`${url}/push`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body,
      });
    },
    device(token: string) {
      const headers = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, ...extra });
      return {
        get: async (path: string) => json(await fetch(`${url}${path}`, { headers: headers() })),
        send: async (method: string, path: string, body: unknown) =>
          json(
            await fetch(`${url}${path}`, {
              method,
              headers: headers({ 'content-type': 'application/json' }),
              body: JSON.stringify(body),
            }),
          ),
        deliveries: async (after = 0, limit = 100) =>
          json(await fetch(`${url}/mailbox/deliveries?after=${after}&limit=${limit}`, { headers: headers() })),
        confirm: async (upTo: number) =>
          json(
            await fetch(`${url}/mailbox/confirm`, {
              method: 'POST',
              headers: headers({ 'content-type': 'application/json' }),
              body: JSON.stringify({ upTo }),
            }),
          ),
      };
    },
    /** Every delivery waiting for a device, paged, each opened with its private key: the bodies in order. */
    async collect(device: TestDevice, after = 0): Promise<{ seq: number; text: string; receivedAt: number }[]> {
      const out: { seq: number; text: string; receivedAt: number }[] = [];
      for (let position = after; ;) {
        const page = await calls.device(device.token).deliveries(position, 500);
        if (page.status !== 200) throw new Error(`deliveries answered ${page.status}: ${JSON.stringify(page.body)}`);
        const body = page.body as unknown as DeliveriesAnswer;
        for (const d of body.deliveries) {
          const content = openDelivery(d.box, d.seq, device.keys.privateKey);
          out.push({ seq: d.seq, text: content.raw.toString('utf8'), receivedAt: content.receivedAt });
        }
        if (!body.more || body.last === null) return out;
        position = body.last;
      }
    },
  };
  return calls;
}

/** A mailbox in this process on 127.0.0.1, in a temp data folder (or the one given), stopped by `stop()`. */
export async function startTestMailbox(options: Partial<MailboxOptions> = {}) {
  const dir = options.dataDir ? null : tempDir('innkeeper-mailbox-');
  const dataDir = options.dataDir ?? dir!.path;
  const mailbox: RunningMailbox = await startMailbox({ port: 0, ...options, dataDir });
  const calls = mailboxCalls(mailbox.url);
  return {
    mailbox,
    dataDir,
    url: mailbox.url,
    ...calls,
    /** A new code made as the CLI makes it, and a device paired with it. */
    async pairNew(name = 'Laptop'): Promise<TestDevice> {
      const { code } = newPairingCode(mailbox.store);
      const paired = await calls.pair(code, name);
      if (paired.status !== 200) throw new Error(`pairing answered ${paired.status}: ${JSON.stringify(paired.body)}`);
      return paired.device;
    },
    async stop() {
      await mailbox.close();
      dir?.remove();
    },
  };
}

/**
 * The mailbox's program (src/mailbox/main.ts, through tsx as `npm run mailbox` runs it) in ONE process of its own, so
 * that a kill reaches the mailbox itself (the tsx command would run it in a child of its own); resolves once it
 * printed its address.
 */
export async function spawnMailbox(args: string[]) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/mailbox/main.ts', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the mailbox did not start within 20 s: ${out}`)), 20_000);
    const look = () => {
      const m = /mailbox: (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', look);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the mailbox exited: ${out}`));
    });
  });
  return {
    url,
    pid: child.pid!,
    output: () => out,
    exited,
    kill: (signal: NodeJS.Signals = 'SIGKILL') => child.kill(signal),
  };
}

/** A command of the mailbox's CLI run to its end: its exit code and everything it printed. */
export function runMailboxCommand(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(join(root, 'node_modules', '.bin', 'tsx'), ['src/mailbox/main.ts', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (out += String(d)));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}
