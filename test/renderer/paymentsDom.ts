import { flushPromises, mount } from '@vue/test-utils';
import type { Pinia } from 'pinia';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import { createMemoryHistory, createRouter, type Router } from 'vue-router';
import { appSections } from './appSections';

/** A router that shows nothing, at every address (components link and navigate; tests read where to). */
export const blankRouter = (): Router =>
  createRouter({
    history: createMemoryHistory(),
    routes: [{ path: '/:any(.*)*', component: { template: '<div />' } }],
  });

/** Mounts a component in the page with PrimeVue, its toasts, the test's store, a router and the app's sections. */
export const mountIt = <C>(component: C, pinia: Pinia, props: Record<string, unknown> = {}, router = blankRouter()) =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  mount(component as any, {
    props,
    global: { plugins: [PrimeVue, ToastService, pinia, router], provide: appSections },
    attachTo: document.body,
  });

export const $ = <E extends Element = HTMLElement>(testid: string, root: ParentNode = document) =>
  root.querySelector<E>(`[data-testid="${testid}"]`);

/** Types into a field as the owner would, and leaves it. */
export async function type(testid: string, value: string) {
  const input = $<HTMLInputElement>(testid)!;
  input.value = value;
  input.dispatchEvent(new Event('input'));
  input.dispatchEvent(new FocusEvent('blur'));
  await flushPromises();
}

export async function click(testid: string) {
  $(testid)!.click();
  await flushPromises();
}

/** The button (or menu item) in `root` whose text holds `text`. */
export const byText = (text: string, root: ParentNode = document, selector = 'button') =>
  [...root.querySelectorAll<HTMLElement>(selector)].find((b) => b.textContent?.includes(text));
