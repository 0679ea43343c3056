import { DEMO_ROWS } from '@renderer/features/demo/slots';
import { REPLY_TOOLS, THREAD_ASIDE } from '@renderer/features/inbox/slots';
import { defineFeature } from '@renderer/lib/feature';
import { section } from '@renderer/lib/sections';
import { usePaymentsStore } from './paymentsStore';
import { usePaymentAlerts } from './usePaymentAlerts';

// One screen: a link in the address (a paid alert opens it) is brought into view in the ledger.
const PaymentsView = () => import('./PaymentsView.vue');

/**
 * Payment links: the Payments screen, a conversation's links and its reply box's Payment link, the demo's "pay as
 * the guest" row, and the alerts of links seen paid.
 */
export const paymentsFeature = defineFeature({
  name: 'payments',
  routes: [
    {
      path: '/payments',
      children: [
        { path: '', name: 'payments', component: PaymentsView },
        { path: ':linkId(\\d+)', name: 'payment', component: PaymentsView },
      ],
    },
  ],
  nav: { path: '/payments', title: 'Payments', icon: 'pi pi-credit-card', order: 40 },
  sections: [
    section(THREAD_ASIDE, { load: () => import('./ThreadPayments.vue') }),
    section(REPLY_TOOLS, { load: () => import('./ReplyPaymentLink.vue') }),
    section(DEMO_ROWS, { load: () => import('./DemoPayment.vue'), label: 'A payment' }),
  ],
  shell() {
    const payments = usePaymentsStore();
    const alerts = usePaymentAlerts();
    return { listen: () => payments.listen(), onToastClick: alerts.onToastClick };
  },
});
