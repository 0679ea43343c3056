// PrimeVue's theme as stylesheets the build works out from ui/theme.ts (build/primeTheme.ts): styled mode would
// compute and inject the same CSS in the page at start. Its tokens (CSS variables) first, its rules last.
import 'virtual:prime-theme-tokens.css';
import { createPinia } from 'pinia';
import PrimeVue from 'primevue/config';
import ToastService from 'primevue/toastservice';
import 'primeicons/primeicons.css';
import { createApp } from 'vue';
import type { InnkeeperApi } from '@shared/contract';
import { connect, connectWithCookie, firstCallsSent, setApi } from '@renderer/api';
import App from '@renderer/shell/App.vue';
import { firstCallsStarted, startFirstScreen } from '@renderer/shell/firstScreen';
import { createAppRouter } from '@renderer/shell/router';
import './styles.css';
// PrimeVue's theme's rules, after the app's own CSS (its tokens lead, imported first).
import 'virtual:prime-theme-rules.css';

// Styled mode with no theme to work out: its CSS is the stylesheet above. The components keep their class names and
// still load their few structural rules (the hidden-accessible helper, the virtual scroller's layout) themselves.
const primeVue = { theme: 'none' };

/** The app, on a way to the core: every store uses it. */
function mountApp(api: InnkeeperApi): void {
  setApi(api);
  const pinia = createPinia();
  const router = createAppRouter();
  // The screen's code and first data are asked for first: setting up the component library and mounting the shell
  // keep the page busy a while.
  startFirstScreen(router, pinia);
  // The shell mounts once those calls have gone out (after the session proof, a round trip to this machine, and for
  // a first visit to the rates calendar its first property's book): the mount keeps the page busy a while, and the
  // calls would otherwise leave only after it. The core answers meanwhile.
  void Promise.all([firstCallsSent(), firstCallsStarted()]).then(() =>
    createApp(App).use(pinia).use(router).use(PrimeVue, primeVue).use(ToastService).mount('#app'),
  );
}

// Decided once, here: with a way to the core the app mounts and every store uses it (the window's, the session link's,
// or, opened without the link, the session cookie this browser kept from an earlier visit with it); without one only
// the page that says how to open the app does, and nothing is called.
const api = connect();
if (api) mountApp(api);
else
  void connectWithCookie().then((withCookie) => {
    if (withCookie) return mountApp(withCookie);
    // Loaded only here: the page that says how to open the app is not part of the app's first screen.
    void import('@renderer/shell/NoSession.vue').then(({ default: NoSession }) =>
      createApp(NoSession).use(PrimeVue, primeVue).mount('#app'),
    );
  });
