import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { errorText } from '../../../shared/result';
import { startCore } from '../../core';
import { demoInfoFile } from '../../demo/demoProvider';
import { demoFeature, type DemoRunOptions } from '../../demo/feature';
import { intakeFeature } from '../../intake/feature';
import { checkDataDirFromEnv, readRuntimeConfig } from '../../config/runtimeConfig';
import { createFileSecrets } from '../../config/secrets';
import { createConfSettings } from '../../config/settings';
import { makeDataFolderOwnerOnly } from './dataFolder';
import { reportMemoryOnSignal } from './memoryReport';
import type { RunningWebHost } from './webHost';
import { startWebHostWithSession } from './webSession';

/** Where the built app's files are, found by the entry (out/main/web.js): this module may sit in a chunk folder. */
export interface WebAppFiles {
  packageJson: URL;
  rendererDir: URL;
}

/** The core under plain Node, served to a browser on 127.0.0.1 (started by main.ts). */
export async function runWebApp(
  files: WebAppFiles,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ url: string; stop(): Promise<void> }> {
  const config = readRuntimeConfig(env);
  reportMemoryOnSignal(env);
  // A folder that is not Innkeeper's (INNKEEPER_DATA_DIR at a home folder, a project) is refused before anything in
  // it is changed.
  checkDataDirFromEnv(env);
  // Owner-only before anything is written: the folder 0700, its files (database, -wal/-shm, backups) 0600.
  makeDataFolderOwnerOnly(config.dataDir);
  const pkg = JSON.parse(readFileSync(fileURLToPath(files.packageJson), 'utf8')) as {
    version: string;
  };
  const core = await startCore({
    host: 'browser',
    version: pkg.version,
    dataDir: config.dataDir,
    settings: createConfSettings(config.dataDir),
    secrets: createFileSecrets(config.dataDir),
    options: {
      forceDemo: config.forceDemo,
      demo: { deliveries: config.demoDeliveries } satisfies DemoRunOptions,
      intakeEnv: config.intake,
      mailboxEnv: config.mailbox,
    },
  });
  // The port and the session token are kept in the data folder: a tab left open finds the app after a restart.
  let web: RunningWebHost;
  try {
    web = await startWebHostWithSession({
      core,
      rendererDir: fileURLToPath(files.rendererDir),
      port: config.webPort,
      dataDir: config.dataDir,
    });
  } catch (error) {
    // The port is taken (or the host failed otherwise): the core stops as it would at a normal stop, so the start
    // leaves nothing behind (its lock in locks/, the demo's demo-provider.json, the listener).
    await core
      .close()
      .catch((closing: unknown) => console.error(`the core did not stop cleanly: ${errorText(closing)}`));
    throw error;
  }
  console.log(`Innkeeper is running in browser mode. Open: ${web.url}`);
  console.log(`A browser that opened it once opens http://127.0.0.1:${web.port}/ without the session (a bookmark).`);
  console.log(`Data folder: ${config.dataDir}`);
  const intake = core.use(intakeFeature).status();
  console.log(
    intake.listening ? `Receiving messages and reviews at ${intake.localUrl}` : `Not receiving: ${intake.error}`,
  );
  if (intake.portNote) console.log(intake.portNote);
  const demo = core.use(demoFeature)?.status();
  console.log(
    demo?.running
      ? `Demo provider (Su emulator): ${demo.mainUrl}; its control API and token (for developers): ${demoInfoFile(config.dataDir)}`
      : 'Demo provider: not running (it runs while the demo is the active provider)',
  );
  const stopAndExit = () => void stop().finally(() => process.exit(0));
  async function stop(): Promise<void> {
    process.off('SIGINT', stopAndExit);
    process.off('SIGTERM', stopAndExit);
    await web.close();
    await core.close();
  }
  process.on('SIGINT', stopAndExit);
  process.on('SIGTERM', stopAndExit);
  return { url: web.url, stop };
}
