import { ref, shallowRef, type Ref } from 'vue';
import type { AppError } from '@shared/result';

/**
 * The owner's choices about one thing (send again, discard, mark as seen…), made one at a time: `busy` names the
 * one being made, `failure` says why the last one made could not be (null once one is). `choose` makes one and
 * resolves with its failure.
 */
export function useChoices<Choice extends string>() {
  const busy = ref(null) as Ref<Choice | null>;
  const failure = shallowRef<AppError | null>(null);
  async function choose(choice: Choice, make: () => Promise<AppError | null>): Promise<AppError | null> {
    busy.value = choice;
    try {
      failure.value = await make();
    } finally {
      busy.value = null;
    }
    return failure.value;
  }
  return { busy, failure, choose };
}
