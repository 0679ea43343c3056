import { onScopeDispose, ref, watch, type ComputedRef, type Ref } from 'vue';
import { addMonths, daysBetween, type DayColumn } from './calendarDays';
import type { GridGroup, GridRow, GridSelection } from './grid';

/**
 * The rates calendar's geometry and what the owner selects in it, with the mouse or the keyboard. Every size is
 * fixed, so a cell's place is arithmetic: nothing is measured in the page while scrolling or dragging.
 */
export const GRID = {
  /** One day column. */
  colWidth: 58,
  /** One channel row. */
  rowHeight: 38,
  /** A room's or rate plan's heading row. */
  headingHeight: 46,
  /** The sticky column with the row names. */
  labelWidth: 236,
  /** The sticky header: month row + day row. */
  monthHeight: 26,
  dayHeight: 42,
} as const;
export const HEAD_HEIGHT = GRID.monthHeight + GRID.dayHeight;

export interface HeadingLine {
  kind: 'heading';
  top: number;
  height: number;
  group: GridGroup;
}
export interface RowLine {
  kind: 'row';
  top: number;
  height: number;
  group: GridGroup;
  row: GridRow;
  /** Index among all channel rows (what the keyboard walks). */
  index: number;
  /** The first and last channel-row index of the row's group: a selection never leaves it. */
  groupFirst: number;
  groupLast: number;
}
export type Line = HeadingLine | RowLine;

export interface GridLayout {
  lines: Line[];
  rows: RowLine[];
  height: number;
}

/** Headings and channel rows, top to bottom, each with its offset in the grid body. */
export function buildLayout(groups: GridGroup[]): GridLayout {
  const lines: Line[] = [];
  const rows: RowLine[] = [];
  let top = 0;
  for (const group of groups) {
    lines.push({ kind: 'heading', top, height: GRID.headingHeight, group });
    top += GRID.headingHeight;
    const groupFirst = rows.length;
    const groupLast = groupFirst + group.rows.length - 1;
    for (const row of group.rows) {
      const line: RowLine = {
        kind: 'row',
        top,
        height: GRID.rowHeight,
        group,
        row,
        index: rows.length,
        groupFirst,
        groupLast,
      };
      lines.push(line);
      rows.push(line);
      top += GRID.rowHeight;
    }
  }
  return { lines, rows, height: top };
}

/** The index of the line at body offset `y` (clamped to the first and last line). */
export function lineIndexAt(lines: Line[], y: number): number {
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((lines[mid]?.top ?? 0) <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A cell by position: channel-row index and day-column index. */
export interface CellPos {
  row: number;
  day: number;
}

/** Equal by value: the parent may hand back our own selection wrapped in a reactive proxy. */
const sameSelection = (a: GridSelection, b: GridSelection | null) =>
  b !== null && a.target === b.target && a.from === b.from && a.to === b.to && a.channels.join() === b.channels.join();

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

interface Options {
  scroller: Ref<HTMLElement | null>;
  layout: ComputedRef<GridLayout>;
  columns: ComputedRef<DayColumn[]>;
  selection: () => GridSelection | null;
  select: (selection: GridSelection | null) => void;
  edit: (selection: GridSelection) => void;
}

export function useGridSelection({ scroller, layout, columns, selection, select, edit }: Options) {
  /** The cell with the focus ring, where the keyboard moves from. */
  const active = ref<CellPos | null>(null);
  /** Where the current selection started (the corner that stays while it grows). */
  const anchor = ref<CellPos | null>(null);
  /** True while the mouse button is down: the rectangle follows it, and is reported when it is let go. */
  const dragging = ref(false);
  let reported: GridSelection | null = null;

  /** The rectangle from `from` to `to`, kept inside `from`'s group (one target). */
  function between(from: CellPos, to: CellPos): GridSelection | null {
    const { rows } = layout.value;
    const start = rows[from.row];
    const days = columns.value;
    if (!start || days.length === 0) return null;
    const endRow = clamp(to.row, start.groupFirst, start.groupLast);
    const [r0, r1] = from.row <= endRow ? [from.row, endRow] : [endRow, from.row];
    const [d0, d1] = from.day <= to.day ? [from.day, to.day] : [to.day, from.day];
    const first = days[clamp(d0, 0, days.length - 1)];
    const last = days[clamp(d1, 0, days.length - 1)];
    if (!first || !last) return null;
    return {
      target: start.row.target,
      channels: rows.slice(r0, r1 + 1).map((line) => line.row.channel),
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

  /** Keeps the active row inside the anchor's group when extending. */
  function withinAnchorGroup(cell: CellPos): CellPos {
    const start = anchor.value && layout.value.rows[anchor.value.row];
    return start ? { row: clamp(cell.row, start.groupFirst, start.groupLast), day: cell.day } : cell;
  }

  // A selection set from outside (a form, a cleared draft) moves the anchor and the active cell with it.
  watch(selection, (next) => {
    if (!next || sameSelection(next, reported)) return;
    const rows = layout.value.rows.filter((r) => r.row.target === next.target && next.channels.includes(r.row.channel));
    const from = columns.value[0]?.date;
    const first = rows[0];
    const last = rows.at(-1);
    if (!first || !last || !from) return;
    anchor.value = { row: first.index, day: daysBetween(from, next.from) };
    active.value = { row: last.index, day: daysBetween(from, next.to) };
  });

  // Geometry: which cell is under a point, and scrolling a cell into view.

  function cellAt(clientX: number, clientY: number, clampToGrid: boolean): CellPos | null {
    const el = scroller.value;
    const { lines } = layout.value;
    const dayCount = columns.value.length;
    if (!el || lines.length === 0 || dayCount === 0) return null;
    const box = el.getBoundingClientRect();
    let x = clientX - box.left - el.clientLeft;
    let y = clientY - box.top - el.clientTop;
    const inside = x >= GRID.labelWidth && x < el.clientWidth && y >= HEAD_HEIGHT && y < el.clientHeight;
    if (!inside && !clampToGrid) return null;
    x = clamp(x, GRID.labelWidth, el.clientWidth - 1);
    y = clamp(y, HEAD_HEIGHT, el.clientHeight - 1);
    const day = Math.floor((x - GRID.labelWidth + el.scrollLeft) / GRID.colWidth);
    const bodyY = y - HEAD_HEIGHT + el.scrollTop;
    if ((day < 0 || day >= dayCount || bodyY >= layout.value.height) && !clampToGrid) return null;
    const at = lineIndexAt(lines, bodyY);
    let line = lines[at];
    if (line?.kind === 'heading') {
      // A heading selects nothing; while dragging it counts as the nearest channel row.
      if (!clampToGrid) return null;
      const below = lines[at + 1];
      line = below?.kind === 'row' ? below : lines[at - 1];
    }
    if (line?.kind !== 'row') return null;
    return { row: line.index, day: clamp(day, 0, dayCount - 1) };
  }

  function reveal(cell: CellPos, behavior: ScrollBehavior = 'auto') {
    const el = scroller.value;
    const line = layout.value.rows[cell.row];
    if (!el || !line) return;
    const cellsWidth = el.clientWidth - GRID.labelWidth;
    const bodyHeight = el.clientHeight - HEAD_HEIGHT;
    const x = cell.day * GRID.colWidth;
    let left = el.scrollLeft;
    if (x < left) left = x;
    else if (x + GRID.colWidth > left + cellsWidth) left = x + GRID.colWidth - cellsWidth;
    // The first row of a group brings its heading along, so the owner sees which room it is.
    const top = line.index === line.groupFirst ? line.top - GRID.headingHeight : line.top;
    let scrollTop = el.scrollTop;
    if (top < scrollTop) scrollTop = top;
    else if (line.top + line.height > scrollTop + bodyHeight) scrollTop = line.top + line.height - bodyHeight;
    if (left !== el.scrollLeft || scrollTop !== el.scrollTop) el.scrollTo({ left, top: scrollTop, behavior });
  }

  // The mouse: press, drag over days and channel rows, let go.

  let pointer = { x: 0, y: 0 };
  let autoScroll = 0;

  function dragTo(clientX: number, clientY: number) {
    pointer = { x: clientX, y: clientY };
    const cell = cellAt(clientX, clientY, true);
    if (!cell) return;
    const next = withinAnchorGroup(cell);
    if (next.row !== active.value?.row || next.day !== active.value?.day) active.value = next;
  }

  /** Past an edge of the grid while dragging, the grid scrolls that way, faster the further out. */
  function autoScrollStep() {
    autoScroll = 0;
    const el = scroller.value;
    if (!dragging.value || !el) return;
    const box = el.getBoundingClientRect();
    const speed = (over: number) => clamp(Math.round(over / 3), -24, 24);
    let dx = 0;
    let dy = 0;
    if (pointer.x < box.left + GRID.labelWidth) dx = speed(pointer.x - box.left - GRID.labelWidth);
    else if (pointer.x > box.left + el.clientWidth) dx = speed(pointer.x - box.left - el.clientWidth);
    if (pointer.y < box.top + HEAD_HEIGHT) dy = speed(pointer.y - box.top - HEAD_HEIGHT);
    else if (pointer.y > box.top + el.clientHeight) dy = speed(pointer.y - box.top - el.clientHeight);
    if (dx || dy) {
      el.scrollBy(dx, dy);
      dragTo(pointer.x, pointer.y);
    }
    autoScroll = requestAnimationFrame(autoScrollStep);
  }

  function onPointerMove(event: PointerEvent) {
    dragTo(event.clientX, event.clientY);
  }

  function stopListening() {
    window.removeEventListener('pointermove', onPointerMove);
    window.removeEventListener('pointerup', onPointerUp);
    window.removeEventListener('pointercancel', onPointerUp);
    cancelAnimationFrame(autoScroll);
    autoScroll = 0;
  }

  function onPointerUp() {
    stopListening();
    if (!dragging.value) return;
    const made = anchor.value && active.value ? between(anchor.value, active.value) : null;
    dragging.value = false;
    report(made);
  }

  function onPointerDown(event: PointerEvent) {
    if (event.button !== 0) return;
    scroller.value?.focus({ preventScroll: true });
    const cell = cellAt(event.clientX, event.clientY, false);
    if (!cell) return;
    if (event.shiftKey && anchor.value) active.value = withinAnchorGroup(cell);
    else anchor.value = active.value = cell;
    dragging.value = true;
    pointer = { x: event.clientX, y: event.clientY };
    window.addEventListener('pointermove', onPointerMove);
    window.addEventListener('pointerup', onPointerUp);
    window.addEventListener('pointercancel', onPointerUp);
    autoScroll = requestAnimationFrame(autoScrollStep);
  }

  function onDoubleClick(event: MouseEvent) {
    const cell = cellAt(event.clientX, event.clientY, false);
    const current = selection();
    if (cell && current) edit(current);
  }

  onScopeDispose(stopListening);

  // The keyboard: arrows, Shift to extend, Home/End, PageUp/PageDown by a month, Enter to edit, Escape to clear.

  /** The top-left cell in view: where the keyboard starts when the grid gets the focus. */
  function firstVisible(): CellPos | null {
    const el = scroller.value;
    const { lines } = layout.value;
    if (!el || lines.length === 0 || columns.value.length === 0) return null;
    const from = lineIndexAt(lines, el.scrollTop);
    const line = lines.slice(from).find((l) => l.kind === 'row') as RowLine | undefined;
    if (!line) return null;
    const day = clamp(Math.ceil(el.scrollLeft / GRID.colWidth), 0, columns.value.length - 1);
    return { row: line.index, day };
  }

  function onFocus() {
    if (!active.value) active.value = firstVisible();
  }

  const firstDate = () => columns.value[0]?.date ?? '';

  function moved(cell: CellPos, key: string): CellPos | null {
    const last = columns.value.length - 1;
    const rows = layout.value.rows.length;
    const byMonth = (months: number) => {
      const date = columns.value[cell.day]?.date ?? firstDate();
      return clamp(daysBetween(firstDate(), addMonths(date, months)), 0, last);
    };
    switch (key) {
      case 'ArrowLeft':
        return { ...cell, day: Math.max(0, cell.day - 1) };
      case 'ArrowRight':
        return { ...cell, day: Math.min(last, cell.day + 1) };
      case 'ArrowUp':
        return { ...cell, row: Math.max(0, cell.row - 1) };
      case 'ArrowDown':
        return { ...cell, row: Math.min(rows - 1, cell.row + 1) };
      case 'Home':
        return { ...cell, day: 0 };
      case 'End':
        return { ...cell, day: last };
      case 'PageUp':
        return { ...cell, day: byMonth(-1) };
      case 'PageDown':
        return { ...cell, day: byMonth(1) };
      default:
        return null;
    }
  }

  function onKeydown(event: KeyboardEvent) {
    if (event.altKey || event.ctrlKey || event.metaKey || dragging.value) return;
    const current = active.value ?? firstVisible();
    if (!current) return;
    if (event.key === 'Escape') {
      if (selection()) report(null);
      anchor.value = current;
      event.preventDefault();
      return;
    }
    if (event.key === 'Enter') {
      const target = selection() ?? between(current, current);
      if (target) edit(target);
      event.preventDefault();
      return;
    }
    const next = moved(current, event.key);
    if (!next) return;
    event.preventDefault();
    if (event.shiftKey) {
      if (!anchor.value || !selection()) anchor.value = current;
      active.value = withinAnchorGroup(next);
      report(between(anchor.value, active.value));
    } else {
      anchor.value = active.value = next;
      report(between(next, next));
    }
    reveal(active.value);
  }

  return { active, dragging, shown, onPointerDown, onDoubleClick, onKeydown, onFocus };
}
