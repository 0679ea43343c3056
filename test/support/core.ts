import { rmSync } from 'node:fs';
import { startCore } from '../../src/main/core';
import { demoFeature, type DemoRunOptions } from '../../src/main/demo/feature';
import type { TunnelProvider } from '../../src/main/intake/tunnel';
import type { CoreOptions } from '../../src/main/feature';
import { createFileSecrets } from '../../src/main/config/secrets';
import { createConfSettings } from '../../src/main/config/settings';
import { eventually } from './eventually';
import { tempDir } from './tempDir';

/**
 * A real core (temp data folder, conf settings, 0600 secret file) with its in-process demo provider. `dataDir`
 * starts it again on the folder of a core that was closed (a restart); `stop()` removes the folder either way.
 */
export async function startTestCore(
  options: {
    forceDemo?: boolean;
    tunnelProvider?: TunnelProvider;
    dataDir?: string;
    /** How the demo behaves; by default it delivers nothing by itself, so a test's inbox holds only its own. */
    demoRun?: DemoRunOptions;
    /** The core's clock (a test that needs a time of day); the real one by default. */
    now?: () => number;
    /** More host options for the features (e.g. `dataFile: { checkEveryMs }`). */
    coreOptions?: CoreOptions;
  } = {},
) {
  const dir = options.dataDir
    ? { path: options.dataDir, remove: () => rmSync(options.dataDir!, { recursive: true, force: true }) }
    : tempDir();
  const core = await startCore({
    host: 'browser',
    version: '0.0.0-test',
    dataDir: dir.path,
    settings: createConfSettings(dir.path),
    secrets: createFileSecrets(dir.path),
    ...(options.now ? { now: options.now } : {}),
    options: {
      forceDemo: options.forceDemo ?? false,
      // A free port per test core, so parallel tests never share the default listener port.
      intakeEnv: { port: 0 },
      ...(options.tunnelProvider ? { tunnelProvider: options.tunnelProvider } : {}),
      demo: options.demoRun ?? { deliveries: false },
      ...options.coreOptions,
    },
  });
  const demo = core.use(demoFeature)!;
  // On the demo, the demo sends its property records and facilities at start; a test begins once Su has them, so
  // what it sends and counts is its own.
  const open = core.db.db.prepare(`SELECT count(*) AS n FROM outbox WHERE state IN ('queued', 'sending')`);
  await eventually(
    async () => (open.get() as { n: number }).n,
    (n) => n === 0,
  );
  return {
    core,
    /** The built-in demo provider (its status, its emulator). */
    demo,
    dataDir: dir.path,
    /** The demo provider's emulator; it runs while the demo is the active provider. */
    emulator() {
      const running = demo.emulator();
      if (!running) throw new Error('the demo provider is not running (the demo is not the active provider)');
      return running;
    },
    async stop() {
      await core.close();
      dir.remove();
    },
  };
}
