import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureText } from '../support/fixtures';
import { basic, mailboxCalls, spawnMailbox, type TestDevice } from '../support/mailboxHarness';
import { tempDir } from '../support/tempDir';

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanups.reverse()) await step();
  cleanups = [];
});

/** Every file under a folder, with its bytes and mode. */
function filesUnder(dir: string): { path: string; bytes: Buffer; mode: number }[] {
  const out: { path: string; bytes: Buffer; mode: number }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (entry.isFile()) out.push({ path, bytes: readFileSync(path), mode: statSync(path).mode & 0o777 });
  }
  return out;
}

/** The ways a guest's words could sit in a file: as written, in base64 (as a sealed box carries them), in hex. */
function forms(text: string, body: string): Buffer[] {
  return [
    Buffer.from(text, 'utf8'),
    Buffer.from(Buffer.from(body).toString('base64')),
    Buffer.from(Buffer.from(text).toString('base64').slice(4, -4)),
    Buffer.from(Buffer.from(text).toString('hex')),
    Buffer.from(text, 'utf16le'),
  ];
}

/** Which guest texts a folder's files hold, in any of their forms: "file: text". */
function leaks(dir: string, guests: { text: string; body: string }[]): string[] {
  const found: string[] = [];
  for (const file of filesUnder(dir)) {
    for (const guest of guests) {
      if (forms(guest.text, guest.body).some((form) => file.bytes.includes(form)))
        found.push(`${file.path}: ${guest.text}`);
    }
  }
  return found;
}

describe('the mailbox’s files hold no guest’s words', () => {
  it('after pushes (plain, gzip, not JSON), collecting and confirming: no file holds any, byte for byte', async () => {
    const dir = tempDir('innkeeper-mailbox-scan-');
    cleanups.push(() => dir.remove());
    const data = join(dir.path, 'data');
    const running = await spawnMailbox(['--port', '0', '--data', data]);
    cleanups.push(async () => {
      running.kill('SIGKILL');
      await running.exited;
    });
    const calls = mailboxCalls(running.url);
    const code = /pairing code: (\S+)/.exec(running.output())![1]!;
    const laptop: TestDevice = (await calls.pair(code, 'Laptop')).device;

    const template = JSON.parse(fixtureText('push-message-244.json')) as Record<string, unknown>;
    const guests = Array.from({ length: 40 }, (_, i) => {
      const text = `Zyxwvut guest note ${i}: the spare key is under the geranium pot ${i * 7919} ✓ Ålesund`;
      return { text, body: JSON.stringify({ ...template, messageid: `95${i}`, message: text }) };
    });
    const notJson = {
      text: 'Qwertyuiop broken body words 4242',
      body: '{"message": "Qwertyuiop broken body words 4242',
    };
    for (const [i, guest] of guests.entries()) {
      const gzip = i % 4 === 0;
      const response = await fetch(`${running.url}/push`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: basic(laptop.pushUser, laptop.pushPassword),
          ...(gzip ? { 'content-encoding': 'gzip' } : {}),
        },
        body: gzip ? gzipSync(guest.body) : guest.body,
      });
      expect(response.status).toBe(200);
    }
    expect((await calls.push(notJson.body, laptop)).status).toBe(400);
    const all = [...guests, notJson];

    // The device reads them all back: the words are there, sealed.
    const collected = await calls.collect(laptop);
    expect(collected.map((c) => c.text)).toEqual(all.map((g) => g.body));

    // While it runs (the WAL holds the recent pages).
    const scanned = filesUnder(data).map((f) => f.path.slice(data.length + 1));
    expect(scanned).toEqual(expect.arrayContaining(['mailbox.db', 'mailbox.db-wal', 'mailbox.db-shm', 'mailbox.lock']));
    expect(leaks(data, all)).toEqual([]);

    // Half confirmed (boxes deleted), then a clean stop (the WAL folded into the file).
    await calls.device(laptop.token).confirm(20);
    expect(leaks(data, all)).toEqual([]);
    running.kill('SIGTERM');
    expect((await running.exited).code).toBe(0);
    expect(leaks(data, all)).toEqual([]);
    // The folder and its files are the owner's only.
    expect(statSync(data).mode & 0o777).toBe(0o700);
    for (const file of filesUnder(data)) expect(file.mode, file.path).toBe(0o600);
    // The scan reads what is there: the clear bookkeeping it may hold, such as the device's name.
    expect(filesUnder(data).some((f) => f.bytes.includes('Laptop'))).toBe(true);
    // Nor did it print any.
    expect(all.filter((g) => running.output().includes(g.text))).toEqual([]);
  }, 60_000);
});
