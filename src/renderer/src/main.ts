import Aura from '@primeuix/themes/aura';
import { definePreset } from '@primeuix/themes';
import { createPinia } from 'pinia';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import 'primeicons/primeicons.css';
import { createApp } from 'vue';
import { connect, setApi } from '@renderer/api';
import App from '@renderer/shell/App.vue';
import NoSession from '@renderer/shell/NoSession.vue';
import { createAppRouter } from '@renderer/shell/router';
import './styles.css';

// A calm teal instead of Aura's default emerald, to match the logo.
const InnkeeperTheme = definePreset(Aura, {
  semantic: {
    primary: {
      50: '{teal.50}',
      100: '{teal.100}',
      200: '{teal.200}',
      300: '{teal.300}',
      400: '{teal.400}',
      500: '{teal.500}',
      600: '{teal.600}',
      700: '{teal.700}',
      800: '{teal.800}',
      900: '{teal.900}',
      950: '{teal.950}',
    },
  },
});

const primeVue = { theme: { preset: InnkeeperTheme, options: { darkModeSelector: false } } };

// Decided once, here: with a way to the core the app mounts and every store uses it; without one (browser mode
// opened without its session link) only the page that says how to open the app does, and nothing is called.
const api = connect();
if (api) {
  setApi(api);
  createApp(App).use(createPinia()).use(createAppRouter()).use(PrimeVue, primeVue).use(ToastService).mount('#app');
} else {
  createApp(NoSession).use(PrimeVue, primeVue).mount('#app');
}
