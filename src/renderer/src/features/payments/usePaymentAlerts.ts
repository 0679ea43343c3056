import type { ToastMessageOptions } from 'primevue/toast';
import { useToast } from 'primevue/usetoast';
import { onMounted, onUnmounted } from 'vue';
import { useRouter } from 'vue-router';
import type { PaymentLinkEntry } from '@shared/payments';
import { useAppStore } from '@renderer/api/appStore';
import { notifyInBackground } from '@renderer/lib/notifications';
import { usePaymentsStore } from './paymentsStore';
import { linkForWhom, linkOrderId, linkTitle } from './paymentWords';

type PaymentToast = ToastMessageOptions & { paymentLinkId?: number };

const TOAST_LIFE_MS = 12_000;
/** Where a link is shown: its row in the ledger. */
export const paymentRoute = (linkId: number) => `/payments/${linkId}`;

/** What the alert says about a paid link: "Paid · Deposit · €45.50", "Anna Berg · order IK-…". */
export function paidWords(link: PaymentLinkEntry): { title: string; body: string } {
  const order = linkOrderId(link);
  return {
    title: `Paid · ${linkTitle(link)}`,
    body: [linkForWhom(link), order && `order ${order}`].filter(Boolean).join(' · ') || 'A payment link was paid.',
  };
}

/**
 * A link seen paid while the app is open: a toast in the window and, in browser mode with the window in the
 * background, the browser notification the inbox uses (if the owner allowed them). Either opens the link in the
 * ledger. Returns the handler for the app's Toast clicks.
 */
export function usePaymentAlerts() {
  const toast = useToast();
  const router = useRouter();
  const app = useAppStore();
  const payments = usePaymentsStore();
  const open = (linkId: number) => router.push(paymentRoute(linkId));

  function alert(link: PaymentLinkEntry) {
    const { title, body } = paidWords(link);
    const message: PaymentToast = {
      severity: 'success',
      summary: title,
      detail: body,
      life: TOAST_LIFE_MS,
      styleClass: 'toast--opens',
      paymentLinkId: link.id,
    };
    toast.add(message);
    notifyInBackground(app.info?.host, title, { body, tag: `innkeeper-payment-${link.id}` }, () => void open(link.id));
  }

  let stop: (() => void) | undefined;
  onMounted(() => (stop = payments.onPaid(alert)));
  onUnmounted(() => stop?.());

  /** A click on a payment's toast (not on its close button) opens the link in the ledger. */
  function onToastClick(event: { originalEvent: Event; message: ToastMessageOptions }) {
    const message = event.message as PaymentToast;
    if (message.paymentLinkId === undefined || (event.originalEvent.target as Element).closest('button')) return;
    toast.remove(message);
    void open(message.paymentLinkId);
  }
  return { onToastClick };
}
