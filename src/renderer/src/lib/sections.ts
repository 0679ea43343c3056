import {
  computed,
  inject,
  shallowRef,
  type Component,
  type ComputedRef,
  type InjectionKey,
  type ShallowRef,
} from 'vue';

/**
 * A named place in one feature's screen that features later in the list fill with components of their own: the
 * Connection screen's sections (intake, demo, desktop), the conversation's payment strip and reply tool (payments).
 * The feature that draws the place defines it (`defineSlot`) and renders what fills it (`useSections`); a later
 * feature, which may import the earlier one, fills it (`section`). So the earlier feature never imports the later.
 *
 * `Props` are what the drawing screen gives every section of the slot (`{ threadId: number }`); a section's
 * component takes them as its props (events as `on…` props).
 */
export interface Slot<Props extends object = object> {
  readonly name: string;
  /** Never set: carries `Props` for the type checker. */
  readonly __props?: Props;
}

/** Defines a slot. Its object is its identity: a section fills the very slot it was given. */
export function defineSlot<Props extends object = Record<never, never>>(name: string): Slot<Props> {
  return Object.freeze({ name });
}

/** A module whose default export is a component (what `import('./X.vue')` resolves to). */
export type ComponentModule<Props extends object = object> = { default: Component<Props> };

/**
 * One component a feature puts into another feature's slot. Either `component` (drawn at once: it is part of the
 * code every screen loads, so only for small pieces drawn on every screen, like a banner) or `load` (its own
 * chunk, loaded with the screen that draws the slot, or when the slot is first drawn).
 */
export interface Section<Props extends object = object> {
  readonly slot: Slot<Props>;
  readonly component?: Component<Props>;
  readonly load?: () => Promise<ComponentModule<Props>>;
  /** What the section is called, where the drawing screen names each of its sections (the demo controls' rows). */
  readonly label?: string;
}

/** Fills `slot` with a component (at once) or a loader (its own chunk): `section(THREAD_ASIDE, { load: … })`. */
export function section<Props extends object>(
  slot: Slot<Props>,
  part:
    | { component: Component<Props>; load?: never; label?: string }
    | { load: () => Promise<ComponentModule<Props>>; component?: never; label?: string },
): Section<Props> {
  return { slot, ...part };
}

/** A section as a screen draws it: its component once loaded, a stable key, and its label. */
export interface DrawnSection {
  readonly key: string;
  readonly component: Component;
  readonly label?: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a slot of any props
type AnySlot = Slot<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a section of any props
export type AnySection = Section<any>;

/** Every feature's sections, by slot: what the shell provides to the screens. */
export interface Sections {
  /**
   * The sections filling `slot`, in the order of the feature list, as far as their code has loaded (reactive: read
   * in a render or a computed, a section shows once loaded). Starts loading the others.
   */
  of(slot: AnySlot): readonly DrawnSection[];
  /** Loads the code of every section of these slots: a screen waits for it, so that it draws them with itself. */
  load(...slots: readonly AnySlot[]): Promise<void>;
}

/** How the shell provides the sections to every screen (`provide(SECTIONS, sections)`). */
export const SECTIONS: InjectionKey<Sections> = Symbol('sections');

interface Entry {
  key: string;
  section: AnySection;
  component: ShallowRef<Component | null>;
  loading: Promise<void> | null;
}

/** The sections of these features (each with a name and its `sections`), in their order. */
export function createSections(features: readonly { name: string; sections?: readonly AnySection[] }[]): Sections {
  const entries: Entry[] = features.flatMap((feature) =>
    (feature.sections ?? []).map((section, i) => ({
      key: `${feature.name}-${i}`,
      section,
      component: shallowRef<Component | null>(section.component ?? null),
      loading: null,
    })),
  );
  const start = (entry: Entry): Promise<void> => {
    const load = entry.section.load;
    if (entry.component.value || !load) return Promise.resolve();
    // A chunk that failed to load (the app was stopped) is asked for again next time.
    entry.loading ??= load().then(
      (module) => void (entry.component.value = module.default),
      (error: unknown) => {
        entry.loading = null;
        throw error;
      },
    );
    return entry.loading;
  };
  return {
    of(slot) {
      return entries
        .filter((entry) => entry.section.slot === slot)
        .flatMap((entry) => {
          if (!entry.component.value) start(entry).catch(() => {});
          const component = entry.component.value;
          return component ? [{ key: entry.key, component, label: entry.section.label }] : [];
        });
    },
    async load(...slots) {
      await Promise.all(entries.filter((entry) => slots.includes(entry.section.slot)).map(start));
    },
  };
}

/** The sections filling `slot`, for the screen that draws it (none when nothing provides them). */
export function useSections(slot: AnySlot): ComputedRef<readonly DrawnSection[]> {
  const sections = inject(SECTIONS, null);
  return computed(() => sections?.of(slot) ?? []);
}

/**
 * Loads the sections of slots ahead of their drawing: for a part of a screen loaded on its own (the open
 * conversation), so that it comes with what fills it, or for a slot drawn once data has come (the demo controls).
 */
export function useSectionLoader(): (...slots: readonly AnySlot[]) => Promise<void> {
  const sections = inject(SECTIONS, null);
  return (...slots) => sections?.load(...slots) ?? Promise.resolve();
}
