import { rmSync } from 'node:fs';
import { startCoreWithDemo } from '../../src/main/demo';
import type { TunnelProvider } from '../../src/main/push/tunnel';
import { createFileSecretStore } from '../../src/main/config/secretStore';
import { createConfSettingsStore } from '../../src/main/config/settingsStore';
import { tempDir } from './tempDir';

/**
 * A real core (temp data folder, conf settings, 0600 secret file) on its own in-process demo emulator. `dataDir`
 * starts it again on the folder of a core that was closed (a restart); `stop()` removes the folder either way.
 */
export async function startTestCore(
  options: { forceDemo?: boolean; tunnelProvider?: TunnelProvider; dataDir?: string } = {},
) {
  const dir = options.dataDir
    ? { path: options.dataDir, remove: () => rmSync(options.dataDir!, { recursive: true, force: true }) }
    : tempDir();
  const core = await startCoreWithDemo({
    host: 'browser',
    version: '0.0.0-test',
    dataDir: dir.path,
    settings: createConfSettingsStore(dir.path),
    secrets: createFileSecretStore(dir.path),
    forceDemo: options.forceDemo ?? false,
    // A free port per test core, so parallel tests never share the default listener port.
    pushEnv: { port: 0 },
    ...(options.tunnelProvider ? { tunnelProvider: options.tunnelProvider } : {}),
  });
  return {
    core,
    dataDir: dir.path,
    async stop() {
      await core.close();
      dir.remove();
    },
  };
}
