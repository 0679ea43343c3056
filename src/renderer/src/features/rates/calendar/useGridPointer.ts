import { onScopeDispose } from 'vue';
import { GRID, HEAD_HEIGHT, cellAt, clamp } from './gridLayout';
import type { SelectionContext } from './useGridSelection';

/**
 * The mouse in the rates calendar: press, drag over days and channel rows, let go. Past an edge of the grid the
 * grid scrolls along; the rectangle is reported to the parent once, when the button is let go.
 */
export function useGridPointer(context: SelectionContext) {
  const { scroller, layout, columns, selection, edit, report } = context;
  const { active, anchor, dragging, between, withinAnchorGroup } = context;
  let pointer = { x: 0, y: 0 };
  let autoScroll = 0;

  const cellUnder = (clientX: number, clientY: number, clampToGrid: boolean) =>
    cellAt(scroller.value, layout.value, columns.value.length, clientX, clientY, clampToGrid);

  function dragTo(clientX: number, clientY: number) {
    pointer = { x: clientX, y: clientY };
    const cell = cellUnder(clientX, clientY, true);
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
    const cell = cellUnder(event.clientX, event.clientY, false);
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
    const cell = cellUnder(event.clientX, event.clientY, false);
    const current = selection();
    if (cell && current) edit(current);
  }

  onScopeDispose(stopListening);

  return { onPointerDown, onDoubleClick };
}
