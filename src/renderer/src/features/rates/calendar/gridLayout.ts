import type { GridGroup, GridRow } from './grid';

/**
 * The rates calendar's geometry. Every size is fixed, so a cell's place is arithmetic: nothing is measured in the
 * page while scrolling or dragging.
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

export const px = (n: number) => `${n}px`;

export const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

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
  /**
   * The rows a selection from this row may reach: its group's, or for a rate plan those of every rate plan of the
   * same room (to close them all at once).
   */
  spanFirst: number;
  spanLast: number;
}
export type Line = HeadingLine | RowLine;

export interface GridLayout {
  lines: Line[];
  rows: RowLine[];
  height: number;
}

/** A cell by position: channel-row index and day-column index. */
export interface CellPos {
  row: number;
  day: number;
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
        spanFirst: groupFirst,
        spanLast: groupLast,
      };
      lines.push(line);
      rows.push(line);
      top += GRID.rowHeight;
    }
  }
  // The rate plans of one room, one after the other, form one span.
  const roomOf = (line: RowLine) => (line.group.level === 'rate' ? line.group.target.split(':')[1] : null);
  let start = 0;
  for (let i = 1; i <= rows.length; i++) {
    const room = roomOf(rows[start]!);
    if (i < rows.length && room !== null && roomOf(rows[i]!) === room) continue;
    for (let j = start; j < i; j++) {
      rows[j]!.spanFirst = room === null ? rows[j]!.groupFirst : start;
      rows[j]!.spanLast = room === null ? rows[j]!.groupLast : i - 1;
    }
    start = i;
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

// Between the page and the grid: which cell is under a point, which is first in view, scrolling one into view.

/**
 * The cell under a point of the page in the scroller `el`, or null outside the cells. With `clampToGrid` (while
 * dragging) a point outside counts as the nearest cell.
 */
export function cellAt(
  el: HTMLElement | null,
  layout: GridLayout,
  dayCount: number,
  clientX: number,
  clientY: number,
  clampToGrid: boolean,
): CellPos | null {
  const { lines } = layout;
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
  if ((day < 0 || day >= dayCount || bodyY >= layout.height) && !clampToGrid) return null;
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

/** The top-left cell in view: where the keyboard starts when the grid gets the focus. */
export function firstVisible(el: HTMLElement | null, layout: GridLayout, dayCount: number): CellPos | null {
  const { lines } = layout;
  if (!el || lines.length === 0 || dayCount === 0) return null;
  const from = lineIndexAt(lines, el.scrollTop);
  const line = lines.slice(from).find((l) => l.kind === 'row') as RowLine | undefined;
  if (!line) return null;
  const day = clamp(Math.ceil(el.scrollLeft / GRID.colWidth), 0, dayCount - 1);
  return { row: line.index, day };
}

/** Scrolls the scroller `el` just enough to show `cell` whole, below the sticky header and beside the names. */
export function reveal(el: HTMLElement | null, layout: GridLayout, cell: CellPos, behavior: ScrollBehavior = 'auto') {
  const line = layout.rows[cell.row];
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
