import { computed, ref, watch, type ComputedRef, type Ref } from 'vue';
import { daysBetween, type DayColumn } from './calendarDays';
import type { GridSelection } from './grid';
import { clamp, type CellPos, type GridLayout, type RowLine } from './gridLayout';
import { useGridKeyboard } from './useGridKeyboard';
import { useGridPointer } from './useGridPointer';

/**
 * What the owner selects in the rates calendar, with the mouse (useGridPointer) or the keyboard (useGridKeyboard):
 * a rectangle of days and channel rows of one target, from an anchor cell to the active cell.
 */

/** Equal by value: the parent may hand back our own selection wrapped in a reactive proxy. */
const sameSelection = (a: GridSelection, b: GridSelection | null) =>
  b !== null &&
  targetsOf(a).join() === targetsOf(b).join() &&
  a.from === b.from &&
  a.to === b.to &&
  a.channels.join() === b.channels.join();

/** The targets a selection covers. */
export const targetsOf = (s: GridSelection) => s.targets ?? [s.target];
/** Whether a row is in a selection (its target, and one of its channels). */
const covers = (s: GridSelection, row: RowLine) =>
  targetsOf(s).includes(row.row.target) && s.channels.includes(row.row.channel);

interface Options {
  scroller: Ref<HTMLElement | null>;
  /** The grid's first day. */
  from: () => string;
  layout: ComputedRef<GridLayout>;
  columns: ComputedRef<DayColumn[]>;
  selection: () => GridSelection | null;
  select: (selection: GridSelection | null) => void;
  edit: (selection: GridSelection) => void;
}

/** The selection's state and rules, as the mouse and the keyboard handlers share them. */
export interface SelectionContext extends Omit<Options, 'from' | 'select'> {
  /** The cell with the focus ring, where the keyboard moves from. */
  active: Ref<CellPos | null>;
  /** Where the current selection started (the corner that stays while it grows). */
  anchor: Ref<CellPos | null>;
  /** True while the mouse button is down: the rectangle follows it, and is reported when it is let go. */
  dragging: Ref<boolean>;
  /** The rectangle from `from` to `to`, kept inside `from`'s group (one target). */
  between: (from: CellPos, to: CellPos) => GridSelection | null;
  /** Keeps the active row inside the anchor's group when extending. */
  withinAnchorGroup: (cell: CellPos) => CellPos;
  /** Tells the parent the owner's new selection. */
  report: (next: GridSelection | null) => void;
}

export function useGridSelection(options: Options) {
  const { from, layout, columns, selection, select } = options;
  const active = ref<CellPos | null>(null);
  const anchor = ref<CellPos | null>(null);
  const dragging = ref(false);
  let reported: GridSelection | null = null;

  function between(from: CellPos, to: CellPos): GridSelection | null {
    const { rows } = layout.value;
    const start = rows[from.row];
    const days = columns.value;
    if (!start || days.length === 0) return null;
    const endRow = clamp(to.row, start.spanFirst, start.spanLast);
    const [r0, r1] = from.row <= endRow ? [from.row, endRow] : [endRow, from.row];
    const [d0, d1] = from.day <= to.day ? [from.day, to.day] : [to.day, from.day];
    const first = days[clamp(d0, 0, days.length - 1)];
    const last = days[clamp(d1, 0, days.length - 1)];
    if (!first || !last) return null;
    const lines = rows.slice(r0, r1 + 1);
    const targets = [...new Set(lines.map((line) => line.row.target))];
    // Across rate plans, each gets the channels chosen on any of them, in the property's order.
    const chosen = new Set(lines.map((line) => line.row.channel));
    const order = rows.filter((r) => r.row.target === targets[0]).map((r) => r.row.channel);
    return {
      target: targets[0]!,
      ...(targets.length > 1 ? { targets } : {}),
      channels: order.filter((c) => chosen.has(c)),
      from: first.date,
      to: last.date,
    };
  }

  /** What the grid draws: the rectangle being dragged, else the owner's selection. */
  const shown = (): GridSelection | null =>
    dragging.value && anchor.value && active.value ? between(anchor.value, active.value) : selection();

  function report(next: GridSelection | null) {
    reported = next;
    select(next);
  }

  function withinAnchorGroup(cell: CellPos): CellPos {
    const start = anchor.value && layout.value.rows[anchor.value.row];
    return start ? { row: clamp(cell.row, start.spanFirst, start.spanLast), day: cell.day } : cell;
  }

  // A selection set from outside (a form, a cleared draft) moves the anchor and the active cell with it.
  watch(selection, (next) => {
    if (!next || sameSelection(next, reported)) return;
    const rows = layout.value.rows.filter((r) => covers(next, r));
    const from = columns.value[0]?.date;
    const first = rows[0];
    const last = rows.at(-1);
    if (!first || !last || !from) return;
    anchor.value = { row: first.index, day: daysBetween(from, next.from) };
    active.value = { row: last.index, day: daysBetween(from, next.to) };
  });

  // At midnight the first column becomes the next day: the anchor and the active cell stay on their dates.
  watch(from, (next, previous) => {
    const by = daysBetween(previous, next);
    for (const cell of [anchor, active]) {
      if (cell.value) cell.value = cell.value.day - by >= 0 ? { ...cell.value, day: cell.value.day - by } : null;
    }
  });

  const context: SelectionContext = { ...options, active, anchor, dragging, between, withinAnchorGroup, report };
  const { onPointerDown, onDoubleClick } = useGridPointer(context);
  const { focused, isActive, onKeydown, onFocus, onBlur } = useGridKeyboard(context);

  /** The selection as day indexes and row keys, and the rectangles drawn over it (one per run of adjacent rows). */
  const selected = computed(() => {
    const sel = shown();
    if (!sel) return { keys: new Set<string>(), from: -1, to: -1, boxes: [] };
    const first = daysBetween(from(), sel.from);
    const last = daysBetween(from(), sel.to);
    const rows = layout.value.rows.filter((r) => covers(sel, r));
    const boxes: { top: number; height: number }[] = [];
    for (const r of rows) {
      const box = boxes.at(-1);
      if (box && box.top + box.height === r.top) box.height += r.height;
      else boxes.push({ top: r.top, height: r.height });
    }
    return { keys: new Set(rows.map((r) => r.row.key)), from: first, to: last, boxes };
  });
  const isSelected = (line: RowLine, col: DayColumn) =>
    selected.value.keys.has(line.row.key) && col.index >= selected.value.from && col.index <= selected.value.to;

  return {
    active,
    focused,
    dragging,
    selected,
    isActive,
    isSelected,
    onPointerDown,
    onDoubleClick,
    onKeydown,
    onFocus,
    onBlur,
  };
}
