import type { HandlerSlice } from '../gateway/dispatcher';
import type { SavedReplies } from './savedReplies';

/** The `savedReplies.*` methods: each answers with the whole list. */
export function savedRepliesHandlers(savedReplies: SavedReplies): HandlerSlice<'savedReplies'> {
  return {
    'savedReplies.list': () => savedReplies.list(),
    'savedReplies.save': (args) => savedReplies.save(args),
    'savedReplies.delete': (args) => savedReplies.remove(args.id),
  };
}
