import { defineFeature } from '../feature';
import { savedRepliesHandlers } from './handlers';
import { SAVED_REPLIES_MIGRATIONS } from './migrations';
import { createSavedReplies } from './savedReplies';

/** The owner's reply templates with {{variables}}, filled in by the composer for each conversation. */
export const savedRepliesFeature = defineFeature({
  name: 'savedReplies',
  migrations: SAVED_REPLIES_MIGRATIONS,
  create(context) {
    return { handlers: savedRepliesHandlers(createSavedReplies(context.database.db, context.now)) };
  },
});
