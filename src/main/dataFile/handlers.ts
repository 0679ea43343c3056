import type { DataFileStatus } from '../../shared/dataFile';
import { AppFailure } from '../../shared/result';
import type { DataFileService } from '../db/dataFile';
import type { HandlerSlice } from '../gateway/dispatcher';
import type { EventBus } from '../gateway/events';

/** The `dataFile.*` methods, and `changed()`, which tells the renderer the data file's state changed. */
export function dataFileHandlers(deps: { dataFile: DataFileService; events: EventBus; checked: Promise<void> }) {
  const { dataFile, events } = deps;
  const changed = (status: DataFileStatus = dataFile.status()): DataFileStatus => {
    events.emit('dataFile.changed', status);
    return status;
  };
  const handlers: HandlerSlice<'dataFile'> = {
    // Never "sound" before the start's integrity check (on a worker) has said so.
    'dataFile.status': async () => {
      await deps.checked;
      return dataFile.status();
    },
    /** The owner chose a backup to restore: it is swapped in when Innkeeper next starts. */
    'dataFile.restoreBackup': (args) => {
      if (!dataFile.status().backups.some((b) => b.file === args.file)) {
        throw new AppFailure({
          code: 'validation',
          message: `There is no backup named ${args.file} any more; choose one of the backups listed.`,
          field: 'file',
          fields: { file: 'Choose one of the backups listed.' },
          retryable: false,
        });
      }
      dataFile.restore(args.file);
      return changed();
    },
    'dataFile.cancelRestore': () => {
      dataFile.cancelRestore();
      return changed();
    },
  };
  return { handlers, changed };
}
