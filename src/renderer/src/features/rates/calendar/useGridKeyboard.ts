import { ref } from 'vue';
import { addMonths, daysBetween, type DayColumn } from './calendarDays';
import { clamp, firstVisible, reveal, type CellPos, type RowLine } from './gridLayout';
import type { SelectionContext } from './useGridSelection';

/**
 * The keyboard in the rates calendar: arrows, Shift to extend, Home/End, PageUp/PageDown by a month, Enter to edit,
 * Escape to clear. Every move is reported at once and scrolled into view.
 */
export function useGridKeyboard(context: SelectionContext) {
  const { scroller, layout, columns, selection, edit, report } = context;
  const { active, anchor, dragging, between, withinAnchorGroup } = context;
  const firstInView = () => firstVisible(scroller.value, layout.value, columns.value.length);

  /** The grid has the focus: only then is the active cell ringed (and the grid's active descendant). */
  const focused = ref(false);
  function onFocus() {
    focused.value = true;
    if (!active.value) active.value = firstInView();
  }
  const onBlur = () => (focused.value = false);
  const isActive = (line: RowLine, col: DayColumn) =>
    focused.value && active.value?.row === line.index && active.value.day === col.index;

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
    const current = active.value ?? firstInView();
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
    reveal(scroller.value, layout.value, active.value);
  }

  return { focused, isActive, onKeydown, onFocus, onBlur };
}
