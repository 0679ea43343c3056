import { createDataFileService } from '../db/dataFile';
import { defineFeature } from '../feature';
import { intakeFeature } from '../intake/feature';
import { dataFileHandlers } from './handlers';

/** The host's option `dataFile` (tests make the schedule short). */
export interface DataFileOptions {
  /** How often the file is checked while the app runs (default every 30 minutes, CHECK_EVERY_MS). */
  checkEveryMs?: number;
}

/**
 * The data file on the owner's screen: its health (damaged, cannot write, since when), the rolling backups and a
 * restore the owner chose. The work itself lives with the database (`db/dataFile.ts`, `db/backup.ts`); a restore
 * files again what the damaged file still held through the intake, as it is built (before anything runs). While the
 * app runs the file is checked on a schedule (option `dataFile.checkEveryMs`) and after any store error.
 */
export const dataFileFeature = defineFeature({
  name: 'dataFile',
  create(context) {
    const options = context.options.dataFile as DataFileOptions | undefined;
    const dataFile = createDataFileService({
      database: context.database,
      settings: context.settings,
      now: context.now,
      refile: context.use(intakeFeature).refile,
      ...(options?.checkEveryMs ? { checkEveryMs: options.checkEveryMs } : {}),
    });
    const feature = dataFileHandlers({ dataFile, events: context.events, checked: context.database.checked });
    // Damage found, writes failing or working again, a backup listed: the screen says so at once.
    context.database.health.onChange(() => feature.changed());
    dataFile.onBackup(() => feature.changed());
    return {
      handlers: feature.handlers,
      /** The backups, and the health behind them (tests wait for a backup under way). */
      provides: dataFile,
      /** The start's backup once the listener and the window are up, then every few hours. */
      start: () => dataFile.start(),
      /** Waits for a backup under way (and takes the start's, if it is still to be taken). */
      stop: () => dataFile.stop(),
    };
  },
});
