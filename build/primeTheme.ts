import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { css, Theme } from '@primeuix/styled';
import { isNotEmpty, minifyCSS } from '@primeuix/utils/object';
import BaseStyle from '@primevue/core/base/style';
import { runnerImport, type Plugin } from 'vite';

// PrimeVue's styled mode works out its theme's CSS in the page: the preset's tokens as CSS variables when the app
// installs it, and each component's rules the first time one is drawn (~180 ms of the first screen's main thread on
// the benchmark machine, bench/RESULTS.md "First screen"). The preset never changes while the app runs, so the build
// works the same CSS out once, with the same PrimeVue functions, from the app's preset and the components the
// renderer imports; the app ships it as a stylesheet and PrimeVue runs with `theme: 'none'`.
// test/renderer/primeTheme.test.ts checks it against what styled mode itself injects for every component drawn.

/** A PrimeVue style module (`primevue/<name>/style`): BaseStyle with its own name, rules and structural CSS. */
export interface PrimeStyle {
  name: string;
  style?: unknown;
  css?: unknown;
  getComponentTheme?: () => { css?: string; style?: string } | undefined;
  getDirectiveTheme?: () => { css?: string; style?: string } | undefined;
}

/** The parts of a PrimeVue component the walk reads. */
export interface PrimeComponent {
  style?: PrimeStyle;
  extends?: PrimeComponent;
  components?: Record<string, PrimeComponent>;
  directives?: Record<string, unknown>;
}

/** The styles the app's components reach, in the order a component and what it draws inside it load them. */
export interface ReachedStyles {
  components: PrimeStyle[];
  /** Directive names (`ripple`, `focustrap`): their style is `primevue/<name>/style`. */
  directives: string[];
}

/** The `primevue/<name>` modules the renderer's sources import (at the top, not type-only, or with import()). */
export function importedPrimeComponents(sources: Iterable<string>): string[] {
  const imported = new Set<string>();
  for (const text of sources) {
    for (const [, kind, name] of text.matchAll(/import\s+(type\s+)?[\w{}\s,]*from\s+'primevue\/(\w+)'/g))
      if (!kind) imported.add(name!);
    for (const [, name] of text.matchAll(/import\(\s*'primevue\/(\w+)'\s*\)/g)) imported.add(name!);
  }
  return [...imported].sort();
}

/** Every .vue and .ts file's text under `dir`. */
export function readSources(dir: string): string[] {
  const texts: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(vue|ts)$/.test(entry.name))
      texts.push(readFileSync(join(entry.parentPath, entry.name), 'utf8'));
  }
  return texts;
}

/** The styles (and directives) `components` reach: their own, their parents', their children's. */
export function reachedStyles(components: PrimeComponent[]): ReachedStyles {
  const styles = new Map<string, PrimeStyle>();
  const directives = new Set<string>();
  const seen = new Set<PrimeComponent>();
  const walk = (component: PrimeComponent) => {
    if (seen.has(component)) return;
    seen.add(component);
    // The nearest style in the chain is the component's own (`$options.style` overrides what it extends).
    let own: PrimeStyle | undefined;
    for (let c: PrimeComponent | undefined = component; c && !own; c = c.extends) own = c.style;
    if (own?.name && !styles.has(own.name)) styles.set(own.name, own);
    for (const name of Object.keys(component.directives ?? {})) directives.add(name.toLowerCase());
    for (const child of Object.values(component.components ?? {})) walk(child);
  };
  components.forEach(walk);
  return { components: [...styles.values()], directives: [...directives] };
}

/** Loads the components the renderer imports (Node: PrimeVue's modules are plain ES modules) and what they reach. */
export async function appPrimeStyles(
  rendererDir: string,
): Promise<{ components: PrimeStyle[]; directives: PrimeStyle[] }> {
  const loaded: PrimeComponent[] = [];
  for (const name of importedPrimeComponents(readSources(rendererDir))) {
    const module = (await import(`primevue/${name}`)) as { default?: unknown };
    const component = module.default;
    if (component && typeof component === 'object' && ('render' in component || 'extends' in component))
      loaded.push(component as PrimeComponent);
  }
  const reached = reachedStyles(loaded);
  const directives: PrimeStyle[] = [];
  for (const name of reached.directives) {
    const module = (await import(`primevue/${name}/style`)) as { default: PrimeStyle };
    directives.push(module.default);
  }
  return { components: reached.components, directives };
}

/** css`${value}`, as BaseStyle.load reads a style value (text, or a function of `dt`) into text. */
const resolved = (value: unknown): string =>
  (css as unknown as (strings: string[], ...values: unknown[]) => string)(['', ''], value);

/** One named block of the CSS, as styled mode's `<style data-primevue-style-id="name">` would hold it. */
export interface ThemeBlock {
  name: string;
  css: string;
}

/**
 * The CSS PrimeVue's styled mode injects for `theme` and the given styles, block by block in the order it loads them:
 * the preset's variables and global style (loaded at install), then per component its variables and its rules.
 * Structural CSS that PrimeVue loads even with `theme: 'none'` (BaseStyle's, a component's `css`) is left to it.
 */
export function primeThemeBlocks(
  theme: { preset: unknown; options: Record<string, unknown> },
  styles: { components: PrimeStyle[]; directives: PrimeStyle[] },
): ThemeBlock[] {
  Theme.setTheme(theme);
  const blocks: ThemeBlock[] = [];
  // BaseStyle.load: css`${style}`, transformed, minified, kept only when not empty.
  const load = (name: string, style: unknown, transform = (cs: string) => cs) => {
    const computed = transform(resolved(style));
    if (isNotEmpty(computed)) blocks.push({ name, css: minifyCSS(computed) as string });
  };
  // BaseStyle.loadStyle: the style module's rules, then the preset's extra CSS for it, under the block's name.
  const loadStyle = (name: string, own: unknown, extra: unknown) =>
    load(name, own, (cs) => Theme.transformCSS(name, `${cs}${resolved(extra)}`) as string);

  const common = (BaseStyle as unknown as PrimeStyle & { getCommonTheme: () => Common }).getCommonTheme() ?? {};
  load('primitive-variables', common.primitive?.css);
  load('semantic-variables', common.semantic?.css);
  load('global-variables', common.global?.css);
  loadStyle('global-style', (BaseStyle as unknown as PrimeStyle).style, common.style);
  for (const style of styles.components) {
    const preset = style.getComponentTheme?.() ?? {};
    load(`${style.name}-variables`, preset.css);
    loadStyle(`${style.name}-style`, style.style, preset.style);
  }
  for (const style of styles.directives) {
    const preset = style.getDirectiveTheme?.() ?? {};
    load(`${style.name}-variables`, preset.css);
    loadStyle(`${style.name}-style`, style.style, preset.style);
  }
  const layerOrder = Theme.getLayerOrderCSS('base') as string;
  if (layerOrder) blocks.unshift({ name: 'layer-order', css: minifyCSS(layerOrder) as string });
  return blocks;
}

interface Common {
  primitive?: { css?: string };
  semantic?: { css?: string };
  global?: { css?: string };
  style?: string;
}

/** The stylesheet: each block under a comment naming it. */
export function primeThemeStylesheet(blocks: ThemeBlock[]): string {
  return blocks.map((block) => `/* ${block.name} */\n${block.css}\n`).join('');
}

/**
 * What main.ts imports: the tokens (CSS variables) first, before the app's own CSS, and the rules last. The tokens
 * lead the page's first stylesheet because PrimeVue reads one of them from the stylesheets when it places an overlay
 * (`--p-anchor-gutter`, looked for rule by rule, and a stylesheet is given up at its first @media rule); the rules
 * come after the app's CSS, as styled mode's `<style>` elements did.
 */
export const PRIME_THEME_MODULES = {
  tokens: 'virtual:prime-theme-tokens.css',
  rules: 'virtual:prime-theme-rules.css',
} as const;

/** Which part of the blocks each module holds. */
const isTokens = (block: ThemeBlock) => block.name.endsWith('-variables') || block.name === 'layer-order';

/** The app's theme, as the module `themeModule` exports it (`InnkeeperTheme` and `themeOptions`, ui/theme.ts). */
export async function loadTheme(themeModule: string): Promise<{ preset: unknown; options: Record<string, unknown> }> {
  const { module } = await runnerImport<{ InnkeeperTheme: unknown; themeOptions: Record<string, unknown> }>(
    themeModule,
    {
      configFile: false,
      logLevel: 'silent',
    },
  );
  return { preset: module.InnkeeperTheme, options: module.themeOptions };
}

/**
 * The renderer build's stylesheets of PrimeVue's theme, worked out from the app's preset (`themeModule`) and the
 * PrimeVue components the renderer's sources under `rendererDir` import.
 */
export function primeThemePlugin(rendererDir: string, themeModule: string): Plugin {
  let blocks: Promise<ThemeBlock[]> | undefined;
  const modules = new Set<string>(Object.values(PRIME_THEME_MODULES));
  return {
    name: 'innkeeper-prime-theme',
    buildStart() {
      blocks = undefined;
    },
    resolveId(source) {
      return modules.has(source) ? source : null;
    },
    async load(id) {
      if (!modules.has(id)) return null;
      blocks ??= Promise.all([loadTheme(themeModule), appPrimeStyles(rendererDir)]).then(([theme, styles]) =>
        primeThemeBlocks(theme, styles),
      );
      const tokens = id === PRIME_THEME_MODULES.tokens;
      return primeThemeStylesheet((await blocks).filter((block) => isTokens(block) === tokens));
    },
  };
}
