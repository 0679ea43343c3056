import type { ToastMessageOptions } from 'primevue/toast';
import ToastEventBus from 'primevue/toasteventbus';
import { shallowRef, type Component } from 'vue';

/**
 * PrimeVue's Toast, loaded just after the first screen instead of before it (with its icons and styles it is ~35 KB
 * of the JavaScript the first screen waits for). The alerts (`useToast().add`) travel on PrimeVue's toast event bus
 * and only a mounted Toast listens: what is added before it has arrived waits here, and is handed to it once it is
 * mounted, in order; one removed meanwhile is dropped. No alert is lost to the late load.
 */
export function useLazyToast(load: () => Promise<{ default: Component }> = () => import('primevue/toast')) {
  const component = shallowRef<Component | null>(null);
  const waiting: ToastMessageOptions[] = [];
  const keep = (message: ToastMessageOptions) => waiting.push(message);
  const drop = (message: ToastMessageOptions) => {
    const at = waiting.indexOf(message);
    if (at >= 0) waiting.splice(at, 1);
  };
  ToastEventBus.on('add', keep);
  ToastEventBus.on('remove', drop);
  void load().then((module) => (component.value = module.default));
  /** Call when the Toast has mounted (it listens from then on). */
  const mounted = () => {
    ToastEventBus.off('add', keep);
    ToastEventBus.off('remove', drop);
    for (const message of waiting.splice(0)) ToastEventBus.emit('add', message);
  };
  return { component, mounted };
}
