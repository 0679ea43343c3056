import { useRouter } from 'vue-router';
import type { AppError } from '@shared/result';
import { api } from '@renderer/api';
import { useInboxStore } from '@renderer/features/inbox/inboxStore';

/** A sentence after what is written, in a paragraph of its own (as the reply box puts one in without a caret). */
export const withSentence = (body: string, sentence: string) => {
  const before = body.trimEnd();
  return before ? `${before}\n\n${sentence}` : sentence;
};

/**
 * Insert into reply away from the conversation (the Payments screen): the link's sentence goes after the reply
 * the owner is writing there — the text typed in this session, else the saved draft — is saved as that reply's
 * draft, and the conversation opens with it in the reply box. Nothing is saved when the draft cannot be read.
 */
export function useReplyDraft() {
  const inbox = useInboxStore();
  const router = useRouter();

  return async function insertIntoReply(threadId: number, sentence: string): Promise<AppError | null> {
    let body = inbox.drafts.get(threadId);
    if (body === undefined) {
      const thread = await api['inbox.thread']({ id: threadId });
      if (!thread.ok) return thread.error;
      body = inbox.drafts.get(threadId) ?? thread.value.draft ?? '';
    }
    const next = withSentence(body, sentence);
    if (!(await inbox.saveDraft(threadId, next)))
      return { code: 'draft', message: 'The reply’s draft could not be saved: the link was not put into it.' };
    inbox.drafts.set(threadId, next);
    await router.push(`/inbox/${threadId}`);
    return null;
  };
}
