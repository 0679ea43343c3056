import { describe, expect, it, vi } from 'vitest';
import type { GridGroup } from '@renderer/features/rates/calendar/grid';
import {
  buildLayout,
  cellAt,
  clamp,
  firstVisible,
  GRID,
  HEAD_HEIGHT,
  lineIndexAt,
  reveal,
} from '@renderer/features/rates/calendar/gridLayout';

const group = (target: string, channels: string[]): GridGroup => ({
  target,
  level: target.startsWith('inv:') ? 'inventory' : 'rate',
  title: 'Double',
  subtitle: target,
  base: null,
  baseOn: () => null,
  baseLabel: null,
  currency: null,
  rows: channels.map((channel) => ({
    key: `${target}|${channel}`,
    target,
    level: 'rate',
    channel,
    channelName: channel,
  })),
});

// Two groups: a heading and two rows, then a heading and three rows.
const layout = buildLayout([group('inv:DBL', ['244', '19']), group('rate:DBL:BAR', ['244', '19', '9'])]);

/** A scroller of the given size and scroll position, its top-left corner at (100, 50) on the page. */
function scroller(width: number, height: number, scrollLeft = 0, scrollTop = 0) {
  return {
    getBoundingClientRect: () => ({ left: 100, top: 50 }),
    clientLeft: 0,
    clientTop: 0,
    clientWidth: width,
    clientHeight: height,
    scrollLeft,
    scrollTop,
    scrollTo: vi.fn(),
  } as unknown as HTMLElement & { scrollTo: ReturnType<typeof vi.fn> };
}

describe('the rates grid layout', () => {
  it('stacks headings and channel rows with fixed heights', () => {
    expect(layout.lines.map((l) => l.kind)).toEqual(['heading', 'row', 'row', 'heading', 'row', 'row', 'row']);
    expect(layout.lines.map((l) => l.top)).toEqual([0, 46, 84, 122, 168, 206, 244]);
    expect(layout.height).toBe(2 * GRID.headingHeight + 5 * GRID.rowHeight);
    expect(layout.rows.map((r) => r.index)).toEqual([0, 1, 2, 3, 4]);
    expect(layout.rows.map((r) => [r.groupFirst, r.groupLast])).toEqual([
      [0, 1],
      [0, 1],
      [2, 4],
      [2, 4],
      [2, 4],
    ]);
    expect(buildLayout([])).toEqual({ lines: [], rows: [], height: 0 });
  });

  it('finds the line at an offset, clamped to the first and last', () => {
    expect(lineIndexAt(layout.lines, -10)).toBe(0);
    expect(lineIndexAt(layout.lines, 0)).toBe(0);
    expect(lineIndexAt(layout.lines, 45)).toBe(0);
    expect(lineIndexAt(layout.lines, 46)).toBe(1);
    expect(lineIndexAt(layout.lines, 130)).toBe(3);
    expect(lineIndexAt(layout.lines, 10_000)).toBe(6);
    expect(clamp(5, 0, 3)).toBe(3);
    expect(clamp(-1, 0, 3)).toBe(0);
  });

  it('finds the cell under a point, and none on a heading, the names or outside', () => {
    const el = scroller(800, 400);
    const at = (x: number, y: number, drag = false) => cellAt(el, layout, 30, 100 + x, 50 + y, drag);
    // First day column, first channel row (below the first heading).
    expect(at(GRID.labelWidth + 1, HEAD_HEIGHT + 46 + 1)).toEqual({ row: 0, day: 0 });
    expect(at(GRID.labelWidth + 2 * GRID.colWidth + 5, HEAD_HEIGHT + 168 + 1)).toEqual({ row: 2, day: 2 });
    expect(at(GRID.labelWidth + 1, HEAD_HEIGHT + 1)).toBeNull(); // a heading
    expect(at(10, HEAD_HEIGHT + 50)).toBeNull(); // the row names
    expect(at(GRID.labelWidth + 1, 10)).toBeNull(); // the header
    // While dragging, a heading counts as the channel row below it, and a point outside as the nearest cell.
    expect(at(GRID.labelWidth + 1, HEAD_HEIGHT + 1, true)).toEqual({ row: 0, day: 0 });
    expect(at(-50, HEAD_HEIGHT + 50, true)).toEqual({ row: 0, day: 0 });
    expect(cellAt(null, layout, 30, 0, 0, false)).toBeNull();
  });

  it('counts the scroll position in', () => {
    const el = scroller(800, 400, 3 * GRID.colWidth, 122);
    expect(cellAt(el, layout, 30, 100 + GRID.labelWidth + 1, 50 + HEAD_HEIGHT + 46 + 1, false)).toEqual({
      row: 2,
      day: 3,
    });
    expect(firstVisible(el, layout, 30)).toEqual({ row: 2, day: 3 });
  });

  it('scrolls just enough to show a cell, bringing a group’s heading along with its first row', () => {
    const el = scroller(GRID.labelWidth + 5 * GRID.colWidth, HEAD_HEIGHT + 100, 0, 200);
    reveal(el, layout, { row: 2, day: 7 });
    // Row 2 is the first of its group: its heading (top 122) shows too; day 7 ends at 8 columns.
    expect(el.scrollTo).toHaveBeenCalledWith({ left: 3 * GRID.colWidth, top: 122, behavior: 'auto' });

    const inView = scroller(GRID.labelWidth + 5 * GRID.colWidth, HEAD_HEIGHT + 300);
    reveal(inView, layout, { row: 1, day: 1 });
    expect(inView.scrollTo).not.toHaveBeenCalled();
  });
});

describe('how far a selection reaches', () => {
  it('stays in an inventory’s rows, and spans the rate plans of one room (not the next room’s)', () => {
    const layout = buildLayout([
      group('inv:DBL', ['244', '19']),
      group('rate:DBL:BAR', ['244', '19']),
      group('rate:DBL:NRF', ['244', '19']),
      group('inv:TWN', ['244', '19']),
      group('rate:TWN:BAR', ['244', '19']),
    ]);
    const spans = layout.rows.map((r) => [r.row.target, r.spanFirst, r.spanLast]);
    expect(spans).toEqual([
      ['inv:DBL', 0, 1],
      ['inv:DBL', 0, 1],
      ['rate:DBL:BAR', 2, 5],
      ['rate:DBL:BAR', 2, 5],
      ['rate:DBL:NRF', 2, 5],
      ['rate:DBL:NRF', 2, 5],
      ['inv:TWN', 6, 7],
      ['inv:TWN', 6, 7],
      ['rate:TWN:BAR', 8, 9],
      ['rate:TWN:BAR', 8, 9],
    ]);
  });
});
