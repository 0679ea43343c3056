// PrimeVue ships this module without types: the bus its Toast listens on (`add`, `remove`, …) and useToast() emits to.
declare module 'primevue/toasteventbus' {
  import type { ToastMessageOptions } from 'primevue/toast';

  type Handler = (message: ToastMessageOptions) => void;
  const ToastEventBus: {
    on(type: string, handler: Handler): void;
    off(type: string, handler: Handler): void;
    emit(type: string, message?: ToastMessageOptions): void;
  };
  export default ToastEventBus;
}
