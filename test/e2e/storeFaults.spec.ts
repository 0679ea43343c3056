import { existsSync, readdirSync, statSync } from 'node:fs';
import { damage } from './damage';
import { join } from 'node:path';
import { startWebHostWithSession } from '../../src/main/hosts/web/webSession';
import { contractClient } from '../support/contract';
import { startTestCore } from '../support/core';
import { dataFileChild, message } from '../support/storeKit';
import { expect, startApp, stopApp, test } from './app';
import { intakeFeature } from '../../src/main/intake/feature';

const shots = 'test-results/screenshots';
/** A second process holding the data file, killed after each test whatever happened. */
let holder: { kill(): void } | null = null;
test.afterEach(() => {
  holder?.kill();
  holder = null;
});
const mode = (path: string) => statSync(path).mode & 0o777;

test('browser mode keeps the data folder owner-only: 0700, the database, -wal, -shm and backups 0600', async ({
  app,
}) => {
  const db = join(app.dataDir, 'innkeeper.db');
  expect(mode(app.dataDir)).toBe(0o700);
  for (const file of [db, `${db}-wal`, `${db}-shm`]) {
    expect(existsSync(file), file).toBe(true);
    expect(mode(file), file).toBe(0o600);
  }
  const backups = join(app.dataDir, 'backups');
  // The start's backup is taken just after the start (once the listener and the web host are up).
  await expect.poll(() => existsSync(backups) && readdirSync(backups).length).toBeGreaterThan(0);
  expect(mode(backups)).toBe(0o700);
  const files = readdirSync(backups);
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) expect(mode(join(backups, file)), file).toBe(0o600);
  for (const file of readdirSync(app.dataDir).filter((f) => statSync(join(app.dataDir, f)).isFile())) {
    expect(mode(join(app.dataDir, file)), file).toBe(0o600);
  }
});

test('a damaged data file: said on every screen, pushes refused, a backup restored at the next start', async ({
  page,
  app,
}) => {
  test.setTimeout(90_000);
  const dataDir = app.dataDir;
  await stopApp(app, false);
  damage(join(dataDir, 'innkeeper.db'));

  const damaged = await startApp({}, dataDir);
  // Another process opens the data file too (and keeps it open): the backup chosen below waits for it.
  const other = await dataFileChild(join(dataDir, 'innkeeper.db'), 'hold');
  holder = other;
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(damaged.url);
    const banner = page.getByTestId('store-banner');
    await expect(banner).toContainText('Innkeeper is not accepting new messages since');
    await expect(banner).toContainText('its data file is damaged');
    await page.screenshot({ path: `${shots}/C-store-banner-1280.png`, animations: 'disabled' });

    await banner.getByRole('link', { name: 'What to do' }).click();
    const problem = page.getByTestId('store-problem');
    await expect(problem).toContainText('The last check that found it sound was at');
    // "What to do" shows this part of the Connection screen, not the screen's top.
    await expect(problem).toBeInViewport();
    await page.screenshot({ path: `${shots}/C-store-damaged-1280.png`, animations: 'disabled' });

    await page.setViewportSize({ width: 1024, height: 680 });
    const restore = page.getByRole('button', { name: /Restore the backup of/ }).first();
    await restore.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/C-store-damaged-1024.png`, animations: 'disabled' });
    await restore.click();
    const pending = page.getByTestId('store-restore-pending');
    await expect(pending).toContainText('will be restored the next time Innkeeper starts');
    await pending.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/C-store-restore-pending-1024.png`, animations: 'disabled' });
  } finally {
    await stopApp(damaged, false);
  }

  const waiting = await startApp({}, dataDir);
  try {
    await page.goto(`${waiting.url}#/connection`);
    const why = page.getByTestId('store-restore-problem');
    await expect(why).toContainText(`another Innkeeper (process ${other.pid}) has the same data file open`);
    await expect(page.getByTestId('store-restore-pending')).toContainText('will be restored');
    await why.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/C-store-restore-waits-1024.png`, animations: 'disabled' });
  } finally {
    await stopApp(waiting, false);
    other.kill();
    await other.exited;
  }

  const restored = await startApp({}, dataDir);
  try {
    await page.goto(`${restored.url}#/connection`);
    await expect(page.getByTestId('store-last-restore')).toContainText('Innkeeper restored the backup of');
    await expect(page.getByTestId('store-banner')).toHaveCount(0);
    await expect(page.getByTestId('intake-listening')).not.toContainText('but not storing');
    await page.getByTestId('store-last-restore').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/C-store-restored-1024.png`, animations: 'disabled' });
  } finally {
    await stopApp(restored);
  }
});

test('a full disk on screen: "cannot store … since" with the reason while it lasts, gone once a push is stored', async ({
  page,
}) => {
  // A real core and the built renderer in this process, so that the data file's growth can be capped as a full disk
  // caps it (SQLITE_FULL on the next page it needs).
  const t = await startTestCore();
  const web = await startWebHostWithSession({
    core: t.core,
    rendererDir: join(import.meta.dirname, '..', '..', 'out', 'renderer'),
    port: 0,
    dataDir: t.dataDir,
  });
  try {
    const password = 'full-disk-password-1234';
    await contractClient(() => t.core.dispatcher).call('intake.save', { port: 8787, username: 'su-partner', password });
    const post = (body: string) =>
      fetch(t.core.use(intakeFeature).service.status().localUrl!, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`su-partner:${password}`).toString('base64')}` },
        body,
      });
    const { db } = t.core.db;
    db.exec('VACUUM'); // no free pages left for the big push to take (those of tables a schema step dropped)
    const { page_count } = db.prepare('PRAGMA page_count').get() as { page_count: number };
    db.exec(`PRAGMA max_page_count = ${page_count}`);
    const big = message('9300000001', 'z'.repeat(40_000));
    expect((await post(big)).status).toBe(503);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(web.url);
    const banner = page.getByTestId('store-banner');
    await expect(banner).toContainText('Innkeeper cannot store new messages and reviews since');
    await expect(banner).toContainText('the disk is full');
    await page.screenshot({ path: `${shots}/C-store-full-banner-1280.png`, animations: 'disabled' });
    await banner.getByRole('link', { name: 'What to do' }).click();
    const problem = page.getByTestId('store-problem');
    await expect(problem).toContainText('database or disk is full');
    await expect(problem).toContainText('Free some space on the disk');
    await page.setViewportSize({ width: 1024, height: 680 });
    await problem.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/C-store-full-1024.png`, animations: 'disabled' });

    db.exec('PRAGMA max_page_count = 1073741823');
    expect((await post(big)).status).toBe(200);
    await expect(page.getByTestId('store-banner')).toHaveCount(0);
  } finally {
    await web.close();
    await t.stop();
  }
});
