import type { DatabaseSync } from 'node:sqlite';
import type { SavedReply } from '../../shared/savedReplies';
import { AppFailure } from '../../shared/result';

/** Saved replies with {{variables}}, filled in by the composer for each thread. */
export function createSavedReplies(db: DatabaseSync, now: () => number) {
  const list = (): SavedReply[] =>
    (
      db.prepare('SELECT id, title, body, updated_at FROM saved_replies ORDER BY title COLLATE NOCASE, id').all() as {
        id: number;
        title: string;
        body: string;
        updated_at: number;
      }[]
    ).map((r) => ({ id: r.id, title: r.title, body: r.body, updatedAt: r.updated_at }));

  return {
    list,
    save(input: { id?: number | undefined; title: string; body: string }): SavedReply[] {
      if (input.id === undefined) {
        db.prepare('INSERT INTO saved_replies (title, body, updated_at) VALUES (?, ?, ?)').run(
          input.title,
          input.body,
          now(),
        );
      } else {
        const changed = db
          .prepare('UPDATE saved_replies SET title = ?, body = ?, updated_at = ? WHERE id = ?')
          .run(input.title, input.body, now(), input.id);
        if (changed.changes === 0)
          throw new AppFailure({ code: 'not_found', message: 'This saved reply no longer exists.', retryable: false });
      }
      return list();
    },
    remove(id: number): SavedReply[] {
      db.prepare('DELETE FROM saved_replies WHERE id = ?').run(id);
      return list();
    },
  };
}

export type SavedReplies = ReturnType<typeof createSavedReplies>;
