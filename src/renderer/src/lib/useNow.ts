import { onScopeDispose, ref } from 'vue';

/** The current time, updated every second while the component lives (for countdowns). */
export function useNow() {
  const now = ref(Date.now());
  const timer = setInterval(() => (now.value = Date.now()), 1000);
  onScopeDispose(() => clearInterval(timer));
  return now;
}

/** "59 min 12 s", "12 s", "3 h 5 min", or "expired". Minutes and seconds up to two hours, so an hour-long token visibly counts down. */
export function formatRemaining(ms: number): string {
  if (ms <= 0) return 'expired';
  const total = Math.floor(ms / 1000);
  if (total >= 7200) return `${Math.floor(total / 3600)} h ${Math.floor((total % 3600) / 60)} min`;
  if (total >= 60) return `${Math.floor(total / 60)} min ${String(total % 60).padStart(2, '0')} s`;
  return `${total} s`;
}
