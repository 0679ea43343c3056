import Aura from '@primeuix/themes/aura';
import { definePreset } from '@primeuix/themes';
import { createPinia } from 'pinia';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import 'primeicons/primeicons.css';
import { createApp } from 'vue';
import App from '@renderer/shell/App.vue';
import { router } from '@renderer/shell/router';
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

createApp(App)
  .use(createPinia())
  .use(router)
  .use(PrimeVue, { theme: { preset: InnkeeperTheme, options: { darkModeSelector: false } } })
  .use(ToastService)
  .mount('#app');
