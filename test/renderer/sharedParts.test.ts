import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { nextTick, ref } from 'vue';
import { formatDateTime } from '@renderer/lib/format';
import { useListChoice } from '@renderer/lib/useListChoice';
import DowntimeNote from '@renderer/ui/DowntimeNote.vue';
import StateLine from '@renderer/ui/StateLine.vue';

describe('DowntimeNote', () => {
  const MIN = 60_000;
  it('lists the last three periods of a minute or more, newest first, under its title, and what they mean', () => {
    const periods = [
      { from: 1 * MIN, to: 3 * MIN },
      { from: 10 * MIN, to: 10 * MIN + 500 }, // a restart: too short to have cost a message
      { from: 20 * MIN, to: 22 * MIN },
      { from: 30 * MIN, to: 31 * MIN },
      { from: 40 * MIN, to: 45 * MIN },
      { from: 50 * MIN, to: null }, // still going: said elsewhere
    ];
    const wrapper = mount(DowntimeNote, {
      props: { periods, title: 'Innkeeper was not listening:' },
      attrs: { 'data-testid': 'intake-downtime' },
      slots: { default: 'Messages sent in these periods may be missing.' },
    });
    const note = wrapper.get('[data-testid="intake-downtime"]');
    expect(note.get('strong').text()).toBe('Innkeeper was not listening:');
    expect(note.findAll('li').map((li) => li.text())).toEqual([
      `${formatDateTime(40 * MIN)} – ${formatDateTime(45 * MIN)}`,
      `${formatDateTime(30 * MIN)} – ${formatDateTime(31 * MIN)}`,
      `${formatDateTime(20 * MIN)} – ${formatDateTime(22 * MIN)}`,
    ]);
    expect(note.text()).toContain('Messages sent in these periods may be missing.');
  });

  it('shows nothing while there is no such period', () => {
    const wrapper = mount(DowntimeNote, {
      props: { periods: [{ from: 0, to: 1000 }], title: 'Innkeeper could not store messages:' },
    });
    expect(wrapper.find('.downtime').exists()).toBe(false);
  });
});

describe('useListChoice', () => {
  it('chooses the first until another is picked, and the first again when the one picked leaves the list', async () => {
    const list = ref([{ id: 'a' }, { id: 'b' }]);
    const chosen = useListChoice(list, (item) => item.id);
    expect(chosen.value).toBe('a');
    chosen.value = 'b';
    list.value = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    await nextTick();
    expect(chosen.value).toBe('b');
    list.value = [{ id: 'c' }, { id: 'a' }];
    await nextTick();
    expect(chosen.value).toBe('c');
    list.value = [];
    await nextTick();
    expect(chosen.value).toBeNull();
  });
});

describe('StateLine', () => {
  it('says how something is after a dot of its tone, and passes the line what else it is given', () => {
    for (const tone of ['ok', 'waiting', 'down'] as const) {
      const wrapper = mount(StateLine, {
        props: { tone },
        attrs: { 'data-testid': 'the-state' },
        slots: { default: 'Tunnel: Open' },
      });
      const line = wrapper.get('[data-testid="the-state"]');
      expect(line.classes()).toEqual(['state-line', `state-line--${tone}`]);
      expect(line.text()).toBe('Tunnel: Open');
      expect(line.find('i.pi-circle-fill').attributes('aria-hidden')).toBe('true');
    }
  });
});
