import { onScopeDispose, ref, type Ref } from 'vue';

/** Below this window width the conversation keeps its booking card to one line (small laptops, 1024 × 680). */
export const NARROW_WIDTH = 1200;

/** Whether the window is narrower than `width`, kept up to date as it is resized. */
export function useNarrowScreen(width = NARROW_WIDTH): Ref<boolean> {
  const query = typeof window.matchMedia === 'function' ? window.matchMedia(`(max-width: ${width - 0.02}px)`) : null;
  const narrow = ref(query?.matches ?? window.innerWidth < width);
  const onChange = (event: MediaQueryListEvent) => (narrow.value = event.matches);
  query?.addEventListener('change', onChange);
  onScopeDispose(() => query?.removeEventListener('change', onChange));
  return narrow;
}
