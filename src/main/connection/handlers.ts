import type { ConnectionState } from '../../shared/connection';
import type { HandlerSlice } from '../gateway/dispatcher';
import type { ConnectionService } from './connectionService';

/** The `connection.*` methods. The service itself tells the renderer when the connection changed. */
export function connectionHandlers(deps: {
  connection: ConnectionService;
  /** Saved credentials may be what work waiting for them needed (the outbox resumes). */
  onSaved: (state: ConnectionState) => void;
}): HandlerSlice<'connection'> {
  const { connection } = deps;
  return {
    'connection.get': () => connection.state(),
    'connection.save': (args) => {
      const state = connection.save(args);
      deps.onSaved(state);
      return state;
    },
    'connection.test': (args) => connection.test(args),
    'connection.discardToken': (args) => connection.discardToken(args.environment),
    'connection.checkPart': (args) => connection.checkPart(args.part, args.profile),
  };
}
