import { mount } from '@vue/test-utils';
import { createPinia } from 'pinia';
import PrimeVue from 'primevue/config';
import { describe, expect, it } from 'vitest';
import type { IntakeStatus } from '@shared/intake';
import IntakeHealth from '@renderer/features/intake/IntakeHealth.vue';
import { refusalPeriods } from '@renderer/features/intake/refusals';

const at = (hh: number, mm: number, day = 23) => new Date(2026, 10, day, hh, mm).getTime();

function status(downtime: IntakeStatus['downtime']): IntakeStatus {
  return {
    port: 8787,
    username: 'su-partner',
    passwordSet: true,
    fromEnvironment: { port: false, username: false, password: false },
    listening: true,
    localUrl: 'http://127.0.0.1:8787/push',
    portNote: null,
    publicUrl: '',
    error: null,
    downtime,
    quarantined: 0,
    demoConnected: false,
    tunnel: { enabled: false, state: 'off', url: null, error: null, authtokenSet: false, domain: '' },
    registerUrl: null,
    store: { problem: null, backups: [], restorePending: null, lastRestore: null, downtime: [] },
  } as IntakeStatus;
}

describe('refused failed logins on the push status', () => {
  it('reads as refused logins with their period, apart from the times Innkeeper was not listening', () => {
    const wrapper = mount(IntakeHealth, {
      global: { plugins: [PrimeVue, createPinia()] },
      props: {
        status: status([
          { component: 'listener', from: at(8, 0), to: at(9, 30), reason: 'stopped' },
          { component: 'guard', from: at(10, 2), to: at(10, 3), reason: 'refusing failed logins (flood)' },
        ]),
      },
    });
    const refusals = wrapper.get('[data-testid="intake-refusals"]').text();
    expect(refusals).toContain('Refused failed logins (flood): 23 Nov 2026, 10:02 – 10:03');
    expect(refusals).toContain('Deliveries with your user name and password were accepted all along');
    const gaps = wrapper.get('[data-testid="intake-downtime"]').text();
    expect(gaps).toContain('08:00');
    expect(gaps).not.toContain('10:02');
  });

  it('a period still going on, one across midnight, one address; newest first, the last three', () => {
    const periods = refusalPeriods([
      { component: 'guard', from: at(1, 0), to: at(1, 1), reason: 'refusing failed logins (flood)' },
      { component: 'guard', from: at(23, 59, 22), to: at(0, 1), reason: 'refusing failed logins (flood)' },
      { component: 'tunnel', from: at(5, 0), to: at(5, 10), reason: 'connection lost' },
      { component: 'guard', from: at(9, 0), to: at(9, 1), reason: 'refusing failed logins from 203.0.113.5' },
      { component: 'guard', from: at(10, 2), to: null, reason: 'refusing failed logins (flood)' },
    ]);
    expect(periods.map((p) => `${p.what}: ${p.when}`)).toEqual([
      'Refusing failed logins (flood): since 23 Nov 2026, 10:02 (still going on)',
      'Refused failed logins from 203.0.113.5: 23 Nov 2026, 09:00 – 09:01',
      'Refused failed logins (flood): 22 Nov 2026, 23:59 – 23 Nov 2026, 00:01',
    ]);
  });

  it('nothing is shown when nothing was refused', () => {
    const wrapper = mount(IntakeHealth, {
      global: { plugins: [PrimeVue, createPinia()] },
      props: { status: status([{ component: 'listener', from: at(8, 0), to: at(9, 30), reason: 'stopped' }]) },
    });
    expect(wrapper.find('[data-testid="intake-refusals"]').exists()).toBe(false);
  });
});
