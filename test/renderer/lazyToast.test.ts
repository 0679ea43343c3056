import { flushPromises, mount } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import Toast from 'primevue/toast';
import ToastService from 'primevue/toastservice';
import { useToast } from 'primevue/usetoast';
import { afterEach, describe, expect, it } from 'vitest';
import { defineComponent, h, type Component } from 'vue';
import { useLazyToast } from '@renderer/shell/lazyToast';

/** The shell's use of the lazy toast (App.vue): alerts raised by the screen, the Toast drawn once it has loaded. */
function shell() {
  let arrive!: () => void;
  const loaded = new Promise<{ default: Component }>((resolve) => (arrive = () => resolve({ default: Toast })));
  let toast!: ReturnType<typeof useToast>;
  const Shell = defineComponent({
    setup() {
      const lazy = useLazyToast(() => loaded);
      toast = useToast();
      return () => h('div', [lazy.component.value ? h(lazy.component.value, { onVnodeMounted: lazy.mounted }) : null]);
    },
  });
  const wrapper = mount(Shell, { attachTo: document.body, global: { plugins: [PrimeVue, ToastService] } });
  return { wrapper, toast: () => toast, arrive };
}

const shown = () => [...document.querySelectorAll('.p-toast-summary')].map((el) => el.textContent);

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the shell’s toasts, loaded after the first screen', () => {
  it('shows, in order, the alerts raised before the Toast arrived, and then the new ones', async () => {
    const { wrapper, toast, arrive } = shell();
    toast().add({ severity: 'info', summary: 'New message from Ana' });
    toast().add({ severity: 'success', summary: 'Link paid' });
    await flushPromises();
    expect(shown()).toEqual([]);

    arrive();
    await flushPromises();
    expect(shown()).toEqual(['New message from Ana', 'Link paid']);

    toast().add({ severity: 'info', summary: 'Notice from Airbnb' });
    await flushPromises();
    expect(shown()).toEqual(['New message from Ana', 'Link paid', 'Notice from Airbnb']);
    wrapper.unmount();
  });

  it('drops an alert removed before the Toast arrived', async () => {
    const { wrapper, toast, arrive } = shell();
    const gone = { severity: 'info' as const, summary: 'Read already' };
    toast().add(gone);
    toast().add({ severity: 'info', summary: 'Still new' });
    toast().remove(gone);
    arrive();
    await flushPromises();
    expect(shown()).toEqual(['Still new']);
    wrapper.unmount();
  });
});
