import { ref, watch, type Ref, type WatchSource } from 'vue';

/**
 * What is chosen from a list that changes (a property, a payment link): its first item until the owner picks
 * another, and the first again when the one picked leaves the list (null while it is empty). `valueOf`: what is
 * kept of an item.
 */
export function useListChoice<T, V>(list: WatchSource<readonly T[]>, valueOf: (item: T) => V): Ref<V | null> {
  const chosen = ref(null) as Ref<V | null>;
  watch(
    list,
    (items) => {
      if (!items.some((item) => valueOf(item) === chosen.value)) chosen.value = items[0] ? valueOf(items[0]) : null;
    },
    { immediate: true },
  );
  return chosen;
}
