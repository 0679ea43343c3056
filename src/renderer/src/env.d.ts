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
