import type { IntakeStatus } from '../../shared/intake';
import type { HandlerSlice } from '../gateway/dispatcher';
import type { EventBus } from '../gateway/events';
import type { IntakeService } from './intakeService';

/** The `intake.*` methods, and `changed()`, which tells the renderer the listener's state changed. */
export function intakeHandlers(deps: { intake: IntakeService; events: EventBus }) {
  const { intake, events } = deps;
  const changed = (status: IntakeStatus = intake.status()): IntakeStatus => {
    events.emit('intake.changed', status);
    return status;
  };
  const handlers: HandlerSlice<'intake'> = {
    'intake.status': () => intake.status(),
    'intake.save': async (args) => changed(await intake.save(args)),
    'intake.quarantine': () => intake.quarantine(),
    'intake.dismissQuarantined': (args) => {
      intake.dismissQuarantined(args.id);
      return changed();
    },
  };
  return { handlers, changed };
}
