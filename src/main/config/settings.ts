import Conf from 'conf';

/**
 * Non-secret settings. Under Electron this is electron-store, under plain Node `conf` (electron-store is conf
 * with Electron's paths), so both hosts hand the core the same shape.
 */
export interface Settings {
  get<T>(key: string): T | undefined;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/** Settings in `<dataDir>/settings.json` through `conf` (browser mode, tests, the emulator CLI). */
export function createConfSettings(dataDir: string): Settings {
  const conf = new Conf<Record<string, unknown>>({
    cwd: dataDir,
    configName: 'settings',
    projectName: 'innkeeper',
    // Settings are plain preferences; a hand-edited broken file should not stop the app from starting.
    clearInvalidConfig: true,
  });
  return {
    get: <T>(key: string) => conf.get(key) as T | undefined,
    set: (key, value) => conf.set(key, value),
    delete: (key) => conf.delete(key),
  };
}
