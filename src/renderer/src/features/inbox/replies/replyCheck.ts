import { DRAFT_MAX_LENGTH, REPLY_MAX_LENGTH } from '@shared/inbox';
import { placeholderProblem } from '@shared/savedReplies';

/** What stands between a reply being written and Send, said in place (null: nothing). */
export interface ReplyCheck {
  /** Characters that count towards the limit (the text as sent: without leading and trailing spaces). */
  length: number;
  limit: number;
  /** The text is longer than a reply can be: it is kept as a draft, but cannot be sent. */
  tooLong: string | null;
  /** The text still holds a {{placeholder}}, named. */
  placeholders: string | null;
  /** Why Send is disabled, when it is (the first of the above). */
  blocked: string | null;
}

const number = (n: number) => n.toLocaleString();

/** Checks a reply as it is typed, with the same rules the core applies when it is sent. */
export function checkReply(text: string, limit = REPLY_MAX_LENGTH): ReplyCheck {
  const length = text.trim().length;
  const kept =
    text.length > DRAFT_MAX_LENGTH
      ? `Over ${number(DRAFT_MAX_LENGTH)} characters it cannot be kept as a draft either: copy it somewhere safe`
      : 'The whole text is kept as your draft';
  const tooLong =
    length > limit
      ? `Too long to send: ${number(length)} characters, and a reply can have at most ${number(limit)}. ` +
        `${kept}. Shorten it by ${number(length - limit)} to send it.`
      : null;
  const placeholders = placeholderProblem(text);
  return { length, limit, tooLong, placeholders, blocked: placeholders ?? tooLong };
}
