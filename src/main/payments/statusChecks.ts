import type { PaymentLinkEntry } from '../../shared/payments';
import { AppFailure } from '../../shared/result';
import { isFinal, nextCheckAt, statusFromHost } from './checks';
import { asError, refusal, type PaymentsContext } from './context';
import { toLink } from './paymentsSql';

/**
 * Following links until they are paid or failed: one check per link at a time, each reading the link afresh and
 * filing the answer only while the link still has the transaction id it asked about. Paid is final: no later
 * answer takes it back.
 */
export function createStatusChecks(ctx: PaymentsContext) {
  const { store, deps, now } = ctx;
  const checking = new Map<string, Promise<PaymentLinkEntry>>();

  async function check(provider: string, id: number, onlyIfDue: boolean): Promise<PaymentLinkEntry> {
    const row = ctx.rowOf(provider, id);
    if (onlyIfDue && (row.next_check_at === null || row.next_check_at > now())) return toLink(row);
    const transactionId = row.transaction_id;
    if (!transactionId || !row.partner_id) {
      throw new AppFailure(
        refusal('transactionId', 'This link has no transaction id: enter it to follow whether it was paid.'),
      );
    }
    const at = now();
    const attempts = row.check_attempts + 1;
    const wasPaid = row.status === 'paid';
    let wrote: boolean;
    try {
      const t = await deps
        .host(provider)
        .transactionStatus({ partner_id: row.partner_id, transaction_id: transactionId });
      const status = wasPaid ? 'paid' : statusFromHost(t.status, t.completed);
      wrote = store.updateLink(
        provider,
        id,
        {
          status,
          host_status: t.status || null,
          last_checked_at: at,
          check_attempts: attempts,
          check_error: null,
          next_check_at: isFinal(status) ? null : nextCheckAt(attempts, at, row.requested_at),
          ...(wasPaid
            ? {}
            : {
                gateway_txn_id: t.gatewayTransactionId || null,
                paid_amount: status === 'paid' ? t.amount || null : null,
                paid_currency: status === 'paid' ? t.currency || null : null,
                settled_at: isFinal(status) ? at : null,
              }),
        },
        transactionId,
      );
    } catch (failure) {
      const error = asError(failure);
      // The host does not know this transaction (or the account): asking again will not change that.
      const unknownToHost = !error.retryable && ['transaction_id', 'partner_id'].includes(error.field ?? '');
      wrote = store.updateLink(
        provider,
        id,
        {
          last_checked_at: at,
          check_attempts: attempts,
          check_error: JSON.stringify(error),
          // The host's word from an earlier answer is not about a transaction it does not know.
          ...(unknownToHost && !wasPaid
            ? { status: 'unknown', host_status: null, next_check_at: null }
            : { next_check_at: wasPaid ? null : nextCheckAt(attempts, at, row.requested_at) }),
        },
        transactionId,
      );
    }
    const after = toLink(ctx.rowOf(provider, id));
    deps.changed(wrote && after.status === 'paid' && !wasPaid ? [after] : []);
    return after;
  }

  /** One check per link at a time: a second caller gets the first one's answer. */
  const checkOnce = (provider: string, id: number, onlyIfDue = false) => {
    const key = `${provider}:${id}`;
    const running = checking.get(key);
    if (running) return running;
    const started = check(provider, id, onlyIfDue).finally(() => checking.delete(key));
    checking.set(key, started);
    return started;
  };

  return {
    checkNow: (id: number) => checkOnce(deps.provider(), id),

    /** The owner gives the link's transaction id; any check of the old one is let go, and the new one asked at once. */
    async setTransaction(id: number, transactionId: string): Promise<PaymentLinkEntry> {
      const provider = deps.provider();
      const row = ctx.rowOf(provider, id);
      if (row.status === 'draft') {
        throw new AppFailure(refusal('transactionId', 'Create the link first; a draft has no transaction.'));
      }
      store.updateLink(provider, id, {
        transaction_id: transactionId,
        transaction_source: 'owner',
        status: row.status === 'paid' ? 'paid' : 'requested',
        // What the host said was about the old transaction.
        ...(row.status === 'paid' ? {} : { host_status: null }),
        check_attempts: 0,
        check_error: null,
        next_check_at: row.status === 'paid' ? null : now(),
      });
      // A check of the old id files nothing now (its answer is about another transaction); wait for it to end.
      await checking.get(`${provider}:${id}`)?.catch(() => undefined);
      return checkOnce(provider, id);
    },

    /** The link whose host transaction this is (the demo's pay button), checked at once. */
    async checkTransaction(transactionId: string): Promise<PaymentLinkEntry | null> {
      const provider = deps.provider();
      const row = store.links(provider).find((r) => r.transaction_id === transactionId && r.status !== 'draft');
      return row ? checkOnce(provider, row.id) : null;
    },

    /** Checks what is due for the provider in use, one link at a time; stops if the provider changes. */
    async checkDue(limit = 10): Promise<number> {
      const provider = deps.provider();
      const due = store.due(provider, now(), limit);
      for (const row of due) {
        if (deps.provider() !== provider) break;
        await checkOnce(provider, row.id, true).catch(() => undefined);
      }
      return due.length;
    },

    /** Waits for checks in flight (shutdown). */
    settle: () => Promise.allSettled([...checking.values()]).then(() => undefined),
  };
}
