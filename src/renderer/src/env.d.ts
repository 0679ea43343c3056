/// <reference types="vite/client" />
import type { InnkeeperApi } from '@shared/contract';

declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<object, object, unknown>;
  export default component;
}

declare global {
  interface Window {
    /** Set by the Electron preload; absent in browser mode. */
    innkeeper?: InnkeeperApi;
  }
}

/** PrimeVue's theme stylesheets, worked out by the build (build/primeTheme.ts). */
declare module 'virtual:prime-theme-tokens.css';
declare module 'virtual:prime-theme-rules.css';
