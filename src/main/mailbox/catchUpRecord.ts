import { whileOffText, type MailboxWhileOff } from '../../shared/mailbox';
import type { Database } from '../db/database';
import type { Collected } from './collector';

/**
 * The catch-up's record in the data file (mailbox_position): how far collecting got, what an unfinished catch-up
 * filed so far, and what the last finished one brought (the screen's "while this computer was off").
 */
export function catchUpRecord(database: Database, now: () => number) {
  /** What the last catch-up brought, kept with the position (so that a restart still says it). */
  const whileOff = (): MailboxWhileOff | null => {
    const row = database.db
      .prepare(
        `SELECT while_off_messages AS messages, while_off_reviews AS reviews, while_off_quarantined AS quarantined,
                while_off_from AS "from", while_off_to AS "to", while_off_collected_at AS collectedAt
           FROM mailbox_position WHERE id = 1`,
      )
      .get() as Omit<MailboxWhileOff, 'text'> | { collectedAt: null } | undefined;
    if (!row || row.collectedAt === null) return null;
    const counts = row as Omit<MailboxWhileOff, 'text'>;
    return { ...counts, text: whileOffText(counts) };
  };
  /**
   * Keeps what a finished catch-up brought in place of the last one (when it brought anything), and ends the
   * unfinished one (`db`: inside the transaction that filed its last group).
   */
  const saveWhileOff = (db: Database['db'], collected: Collected) => {
    if (collected.messages + collected.reviews + collected.quarantined > 0)
      db.prepare(
        `UPDATE mailbox_position SET while_off_messages = ?, while_off_reviews = ?, while_off_quarantined = ?,
                while_off_from = ?, while_off_to = ?, while_off_collected_at = ? WHERE id = 1`,
      ).run(
        collected.messages,
        collected.reviews,
        collected.quarantined,
        collected.from ?? now(),
        collected.to ?? now(),
        now(),
      );
    saveCatching(db, null);
  };
  /** What an unfinished catch-up filed so far (null: none is unfinished). */
  const saveCatching = (db: Database['db'], so: Collected | null) =>
    db
      .prepare(
        `UPDATE mailbox_position SET catching_messages = ?, catching_reviews = ?, catching_quarantined = ?,
                catching_from = ?, catching_to = ? WHERE id = 1`,
      )
      .run(so?.messages ?? null, so?.reviews ?? null, so?.quarantined ?? null, so?.from ?? null, so?.to ?? null);
  const catching = (): Collected => {
    const row = database.db
      .prepare(
        `SELECT catching_messages AS messages, catching_reviews AS reviews, catching_quarantined AS quarantined,
                catching_from AS "from", catching_to AS "to" FROM mailbox_position WHERE id = 1`,
      )
      .get() as { messages: number | null; reviews: number | null; quarantined: number | null } & Pick<
      Collected,
      'from' | 'to'
    >;
    return {
      messages: row?.messages ?? 0,
      reviews: row?.reviews ?? 0,
      quarantined: row?.quarantined ?? 0,
      from: row?.from ?? null,
      to: row?.to ?? null,
    };
  };
  const position = (): number =>
    (
      database.db.prepare('SELECT position FROM mailbox_position WHERE id = 1').get() as
        { position: number } | undefined
    )?.position ?? 0;
  return { whileOff, saveWhileOff, saveCatching, catching, position };
}
