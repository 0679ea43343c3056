// @vitest-environment happy-dom
import PrimeVue from 'primevue/config';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, h, withDirectives, type Component, type Directive } from 'vue';
import {
  appPrimeStyles,
  importedPrimeComponents,
  loadTheme,
  primeThemeBlocks,
  readSources,
  type PrimeComponent,
  type ThemeBlock,
} from '../../build/primeTheme';

// (In the Node project for its import of build/, in happy-dom's page.)
// The app ships PrimeVue's theme as stylesheets the build works out (build/primeTheme.ts) and runs PrimeVue with
// theme 'none'. Here PrimeVue's styled mode itself draws every component the renderer imports, and every component
// and directive those draw inside them, with the app's preset: each <style> it injects for the theme must be in the
// build's CSS, word for word. A component the build left out (or drew differently) fails here.

// The app's preset, loaded as the build loads it.
const theme = await loadTheme('src/renderer/src/ui/theme.ts');

/** The renderer's PrimeVue components and every component and directive they draw inside them. */
async function drawnComponents(): Promise<{ components: PrimeComponent[]; directives: Record<string, unknown> }> {
  const found = new Set<PrimeComponent>();
  const directives: Record<string, unknown> = {};
  const walk = (component: PrimeComponent) => {
    if (found.has(component)) return;
    found.add(component);
    Object.assign(directives, component.directives ?? {});
    Object.values(component.components ?? {}).forEach(walk);
  };
  for (const name of importedPrimeComponents(readSources('src/renderer/src'))) {
    const component = ((await import(/* @vite-ignore */ `primevue/${name}`)) as { default?: unknown }).default;
    if (component && typeof component === 'object' && ('render' in component || 'extends' in component))
      walk(component as PrimeComponent);
  }
  return { components: [...found], directives };
}

/** The page happy-dom gives this test (the Node project's types have no DOM). */
interface Page {
  head: {
    innerHTML: string;
    querySelectorAll(
      selector: string,
    ): Iterable<{ getAttribute(name: string): string | null; textContent: string | null }>;
  };
  body: { innerHTML: string; appendChild<T>(node: T): T };
  createElement(tag: string): unknown;
}
const document = (globalThis as unknown as { document: Page }).document;

/** What styled mode injected: each `<style data-primevue-style-id>` by its name. */
function injected(): Map<string, string> {
  return new Map(
    [...document.head.querySelectorAll('style[data-primevue-style-id]')].map((el) => [
      el.getAttribute('data-primevue-style-id')!,
      el.textContent ?? '',
    ]),
  );
}

/** Draws each component and directive once in a page whose PrimeVue runs with `config`. */
function drawAll(config: object, drawn: Awaited<ReturnType<typeof drawnComponents>>): void {
  for (const component of drawn.components) {
    const app = createApp(component as Component).use(PrimeVue, config);
    // Drawn with no props: a component that cannot render that way has loaded its styles before rendering anyway.
    app.config.errorHandler = () => {};
    app.config.warnHandler = () => {};
    app.mount(document.body.appendChild(document.createElement('div')) as string);
    app.unmount();
  }
  for (const directive of Object.values(drawn.directives)) {
    const app = createApp(() => withDirectives(h('div'), [[directive as Directive]])).use(PrimeVue, config);
    app.mount(document.body.appendChild(document.createElement('div')) as string);
    app.unmount();
  }
}

/** The theme's blocks (not the structural CSS PrimeVue still loads itself with theme 'none'). */
const isThemeBlock = (name: string) => name.endsWith('-variables') || name.endsWith('-style') || name === 'layer-order';

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

describe('PrimeVue’s theme worked out by the build', () => {
  it('holds, word for word, every theme style styled mode injects for the components the app draws', async () => {
    const built = primeThemeBlocks(theme, await appPrimeStyles('src/renderer/src'));
    const drawn = await drawnComponents();
    // The scan reached the app's components and what they draw inside them.
    expect(drawn.components.length).toBeGreaterThan(30);
    expect(Object.keys(drawn.directives)).toEqual(expect.arrayContaining(['ripple']));

    drawAll({ theme }, drawn);
    const styles = injected();
    const runtime = [...styles].filter(([name, css]) => isThemeBlock(name) && css.trim() !== '');
    // Styled mode drew the theme: the tokens and each of the app's everyday components' rules.
    expect(runtime.map(([name]) => name)).toEqual(
      expect.arrayContaining(['semantic-variables', 'global-style', 'button-style', 'select-style', 'toast-style']),
    );
    expect(runtime.length).toBeGreaterThan(60);

    const builtByName = new Map(built.map((block: ThemeBlock) => [block.name, block.css]));
    const missing = runtime.filter(([name]) => !builtByName.has(name)).map(([name]) => name);
    expect(missing).toEqual([]);
    const different = runtime.filter(([name, css]) => builtByName.get(name) !== css).map(([name]) => name);
    expect(different).toEqual([]);
    // Nothing in the build's CSS that styled mode would not have drawn.
    const extra = built.map((block) => block.name).filter((name) => !styles.has(name));
    expect(extra).toEqual([]);
  });

  it('leaves nothing of the theme to work out in the page with theme "none", as main.ts installs PrimeVue', async () => {
    drawAll({ theme: 'none' }, await drawnComponents());
    const names = [...injected().keys()];
    // Only PrimeVue's structural CSS (the hidden-accessible helper, the virtual scroller's layout).
    expect(names.filter(isThemeBlock)).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['base']));
  });
});
