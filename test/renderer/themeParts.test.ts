import { describe, expect, it } from 'vitest';
import { Aura } from '@renderer/ui/auraParts';
import { InnkeeperTheme } from '@renderer/ui/theme';

// The theme holds the design tokens of only the PrimeVue components the app draws (ui/auraParts.ts). A component
// whose tokens are missing draws without its colours and spacing: every component the renderer imports, and every
// component or directive those draw inside them, must have its tokens in the preset when Aura has any for it.

const sources = import.meta.glob<string>('/src/renderer/src/**/*.{vue,ts}', {
  query: '?raw',
  import: 'default',
  eager: true,
});
/** The components Aura has tokens for (its folders). */
const auraTokens = new Set(
  Object.keys(import.meta.glob('/node_modules/@primeuix/themes/dist/aura/*/index.mjs')).map((path) =>
    path.split('/').at(-2)!,
  ),
);

interface PrimeComponent {
  name?: string;
  style?: { name?: string };
  extends?: PrimeComponent;
  components?: Record<string, PrimeComponent>;
  directives?: Record<string, unknown>;
}

/** The token names a component reaches: its own style's, its children's and its directives'. */
function tokenNames(component: PrimeComponent, into: Set<string>, seen = new Set<PrimeComponent>()): Set<string> {
  if (seen.has(component)) return into;
  seen.add(component);
  for (let c: PrimeComponent | undefined = component; c; c = c.extends) if (c.style?.name) into.add(c.style.name);
  for (const child of Object.values(component.components ?? {})) tokenNames(child, into, seen);
  for (const directive of Object.keys(component.directives ?? {})) into.add(directive.toLowerCase());
  return into;
}

describe('the theme’s component tokens', () => {
  it('cover every PrimeVue component the renderer draws, and those they draw inside them', async () => {
    const imported = new Set<string>();
    for (const text of Object.values(sources)) {
      // Imported at the top (not type-only), or loaded later (the shell's toasts, the dialogs).
      for (const [, kind, name] of text.matchAll(/import\s+(type\s+)?[\w{}\s,]*from\s+'primevue\/(\w+)'/g))
        if (!kind) imported.add(name!);
      for (const [, name] of text.matchAll(/import\(\s*'primevue\/(\w+)'\s*\)/g)) imported.add(name!);
    }
    // The scan found the app's imports (the shell's toasts, the forms' buttons).
    expect([...imported]).toEqual(expect.arrayContaining(['button', 'message', 'toast']));
    expect(imported.size).toBeGreaterThan(20);
    expect([...auraTokens]).toEqual(expect.arrayContaining(['button', 'select', 'toast']));

    const names = new Set<string>();
    for (const name of imported) {
      const module = (await import(/* @vite-ignore */ `primevue/${name}`)) as { default?: unknown };
      const component = module.default as PrimeComponent | undefined;
      if (component && typeof component === 'object' && ('render' in component || 'extends' in component))
        tokenNames(component, names);
    }
    // Drawn inside others: the select's virtual scroller, the select button's toggle buttons, the buttons' ripple.
    expect([...names]).toEqual(expect.arrayContaining(['virtualscroller', 'togglebutton', 'ripple', 'chip']));

    const withTokens = [...names].filter((name) => auraTokens.has(name)).sort();
    const missing = withTokens.filter((name) => !(name in Aura.components));
    expect(missing).toEqual([]);
  });

  it('keeps Aura’s base tokens and the app’s own colours on top', () => {
    const preset = InnkeeperTheme as {
      primitive: Record<string, unknown>;
      semantic: { primary: Record<string, string> };
      components: Record<string, unknown>;
    };
    expect(preset.primitive.teal).toBeDefined();
    expect(preset.semantic.primary[700]).toBe('{teal.700}');
    expect(Object.keys(preset.components).sort()).toEqual(Object.keys(Aura.components).sort());
  });
});
