import { computed, onMounted, onUnmounted, ref, type ComputedRef, type Ref } from 'vue';
import { addMonths, daysBetween, monthLabel, monthSpans, monthStart, type DayColumn } from './calendarDays';
import { GRID, lineIndexAt, type GridLayout } from './gridLayout';

/**
 * What of the rates calendar is in view, and moving the view by months. Both axes are virtual: only the day columns
 * and lines in view (and a little around them) are drawn.
 */

const OVERSCAN_COLUMNS = 4;
const OVERSCAN_PIXELS = 160;

interface Options {
  scroller: Ref<HTMLElement | null>;
  /** The first day of the grid and the number of days. */
  from: () => string;
  days: () => number;
  columns: ComputedRef<DayColumn[]>;
  layout: ComputedRef<GridLayout>;
}

export function useGridViewport({ scroller, from, days, columns, layout }: Options) {
  const months = computed(() => monthSpans(columns.value));
  const clampDay = (index: number) => Math.min(Math.max(index, 0), days() - 1);

  // What is in view, read once per animation frame: scrolling never waits on the page's layout.
  const view = ref({ left: 0, top: 0, width: 0, height: 0 });
  let frame = 0;
  function measure() {
    frame = 0;
    const el = scroller.value;
    if (el) view.value = { left: el.scrollLeft, top: el.scrollTop, width: el.clientWidth, height: el.clientHeight };
  }
  const onScroll = () => (frame ||= requestAnimationFrame(measure));

  // Only whole-column and whole-row changes re-render: these numbers stay the same within a column's width.
  const colStart = computed(() => Math.max(0, Math.floor(view.value.left / GRID.colWidth) - OVERSCAN_COLUMNS));
  const colEnd = computed(() =>
    Math.min(
      days(),
      Math.ceil((view.value.left + view.value.width - GRID.labelWidth) / GRID.colWidth) + OVERSCAN_COLUMNS,
    ),
  );
  const visibleColumns = computed(() => columns.value.slice(colStart.value, colEnd.value));
  const visibleMonths = computed(() => months.value.filter((m) => m.end >= colStart.value && m.start < colEnd.value));
  const lineStart = computed(() => lineIndexAt(layout.value.lines, view.value.top - OVERSCAN_PIXELS));
  const lineEnd = computed(() => lineIndexAt(layout.value.lines, view.value.top + view.value.height + OVERSCAN_PIXELS));
  const visibleLines = computed(() => layout.value.lines.slice(lineStart.value, lineEnd.value + 1));

  // Month navigation, from the first day in view (or from where a smooth scroll is heading).
  const firstDay = computed(() => clampDay(Math.round(view.value.left / GRID.colWidth)));
  const shownMonth = computed(() => monthLabel(columns.value[firstDay.value]?.date ?? from()));
  const lastMonthStart = computed(() => months.value.at(-1)?.start ?? 0);
  const atFirstMonth = computed(() => firstDay.value === 0);
  const atLastMonth = computed(() => firstDay.value >= lastMonthStart.value);
  let heading: number | null = null;
  function scrollToIndex(index: number) {
    const el = scroller.value;
    if (!el) return;
    const left = Math.min(clampDay(index) * GRID.colWidth, el.scrollWidth - el.clientWidth);
    if (Math.abs(left - el.scrollLeft) < 1) return;
    heading = Math.round(left / GRID.colWidth);
    el.scrollTo({ left, behavior: 'smooth' });
  }
  /** Scrolls smoothly so that `day` is the first day column in view. */
  const scrollToDay = (day: string) => scrollToIndex(daysBetween(from(), day));
  function goMonth(step: 1 | -1) {
    const base = columns.value[heading ?? firstDay.value]?.date ?? from();
    scrollToDay(monthStart(addMonths(base, step)));
  }
  const onScrollEnd = () => (heading = null);

  let resize: ResizeObserver | null = null;
  onMounted(() => {
    measure();
    resize = new ResizeObserver(onScroll);
    if (scroller.value) {
      resize.observe(scroller.value);
      scroller.value.addEventListener('scrollend', onScrollEnd);
    }
  });
  onUnmounted(() => {
    resize?.disconnect();
    cancelAnimationFrame(frame);
  });

  return {
    onScroll,
    visibleColumns,
    visibleMonths,
    lineStart,
    visibleLines,
    shownMonth,
    atFirstMonth,
    atLastMonth,
    scrollToDay,
    goMonth,
  };
}
