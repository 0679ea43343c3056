import { createPinia } from 'pinia';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import 'primeicons/primeicons.css';
import { createApp, markRaw } from 'vue';
import { connect, setApi } from '@renderer/api';
import App from '@renderer/shell/App.vue';
import { InnkeeperTheme } from '@renderer/ui/theme';
import { startFirstScreen } from '@renderer/shell/firstScreen';
import { createAppRouter } from '@renderer/shell/router';
import './styles.css';

// The theme is not made reactive: PrimeVue deep-watches its configuration, which walked (and tracked) every token of
// the preset at start and on each component's first use. It never changes while the app runs.
const primeVue = { theme: markRaw({ preset: InnkeeperTheme, options: { darkModeSelector: false } }) };

// Decided once, here: with a way to the core the app mounts and every store uses it; without one (browser mode
// opened without its session link) only the page that says how to open the app does, and nothing is called.
const api = connect();
if (api) {
  setApi(api);
  const pinia = createPinia();
  const router = createAppRouter();
  // The screen's code and first data are asked for first: setting up the component library and mounting the shell
  // keep the page busy a while.
  startFirstScreen(router, pinia);
  createApp(App).use(pinia).use(router).use(PrimeVue, primeVue).use(ToastService).mount('#app');
} else {
  // Loaded only here: the page that says how to open the app is not part of the app's first screen.
  void import('@renderer/shell/NoSession.vue').then(({ default: NoSession }) =>
    createApp(NoSession).use(PrimeVue, primeVue).mount('#app'),
  );
}
