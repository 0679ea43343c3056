import type { AppInfo } from '../../shared/app';
import { defineFeature } from '../feature';
import type { HandlerSlice } from '../gateway/dispatcher';

/** The app itself: its version, how it runs (Electron or browser mode), where its data is, how secrets are kept. */
export const appFeature = defineFeature({
  name: 'app',
  create(context) {
    const handlers: HandlerSlice<'app'> = {
      'app.info': (): AppInfo => ({
        version: context.version,
        host: context.host,
        dataDir: context.dataDir,
        secretStorage: context.secrets.kind,
      }),
    };
    return { handlers };
  },
});
