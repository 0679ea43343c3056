import { flushPromises, mount } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import Dialog from 'primevue/dialog';
import { beforeEach, describe, expect, it } from 'vitest';
import { defineComponent, h, ref } from 'vue';
import CurrencyField from '@renderer/features/payments/CurrencyField.vue';
import ForWhomField from '@renderer/features/payments/ForWhomField.vue';
import { describedBy } from '@renderer/lib/fieldErrors';
import AppDialog from '@renderer/ui/AppDialog.vue';
import DialogActions from '@renderer/ui/DialogActions.vue';
import DialogForm from '@renderer/ui/DialogForm.vue';
import FieldGrid from '@renderer/ui/FieldGrid.vue';
import FieldWithAction from '@renderer/ui/FieldWithAction.vue';
import TextField from '@renderer/ui/TextField.vue';

beforeEach(() => {
  document.body.innerHTML = '';
});
const global = { plugins: [PrimeVue] };
const $ = <E extends Element = HTMLElement>(selector: string) => document.querySelector<E>(selector);

describe('describedBy', () => {
  it('points at the error when there is one, else at the help, else at nothing', () => {
    expect(describedBy('amount', 'Too many decimals.', 'Two decimals.')).toBe('amount-error');
    expect(describedBy('amount', undefined, 'Two decimals.')).toBe('amount-help');
    expect(describedBy('amount', undefined, undefined)).toBeUndefined();
  });
});

describe('TextField', () => {
  it('labels its input, says its help, and names both for tests', () => {
    const wrapper = mount(TextField, {
      props: { id: 'link-amount', label: 'Amount', help: 'Two decimals.', testid: 'link-amount', modelValue: '4' },
      global,
    });
    const input = wrapper.get('input');
    expect(wrapper.get('label').attributes('for')).toBe('link-amount');
    expect(wrapper.get('label').text()).toBe('Amount');
    expect(input.attributes('id')).toBe('link-amount');
    expect(input.attributes('data-testid')).toBe('link-amount');
    expect(input.attributes('aria-describedby')).toBe('link-amount-help');
    expect(input.attributes('aria-invalid')).toBeUndefined();
    expect(input.attributes('autocomplete')).toBe('off');
    expect(input.attributes('spellcheck')).toBe('false');
    expect((input.element as HTMLInputElement).value).toBe('4');
    expect(wrapper.get('#link-amount-help').text()).toBe('Two decimals.');
  });

  it('shows its error instead of its help, marked for tests, and the input points at it', () => {
    const wrapper = mount(TextField, {
      props: { id: 'x', label: 'X', help: 'Help.', error: 'Required.', testid: 'tx', modelValue: '' },
      global,
    });
    expect(wrapper.get('[data-testid="tx-error"]').text()).toBe('Required.');
    expect(wrapper.find('#x-help').exists()).toBe(false);
    expect(wrapper.get('input').attributes('aria-describedby')).toBe('x-error');
    expect(wrapper.get('input').attributes('aria-invalid')).toBe('true');
  });

  it('gives its input what it is given (type, placeholder, blur), its field the class, and holds text, never undefined', async () => {
    const value = ref<string>('a');
    const left: string[] = [];
    const Parent = defineComponent(
      () => () =>
        h(TextField, {
          id: 'mail',
          label: 'E-mail',
          modelValue: value.value,
          'onUpdate:modelValue': (v: string) => (value.value = v),
          type: 'email',
          placeholder: 'anna@example.com',
          maxlength: 60,
          class: 'grid__wide',
          onBlur: () => left.push('mail'),
        }),
    );
    const wrapper = mount(Parent, { global });
    const input = wrapper.get('input');
    expect(input.attributes('type')).toBe('email');
    expect(input.attributes('placeholder')).toBe('anna@example.com');
    expect(input.attributes('maxlength')).toBe('60');
    expect(input.classes()).not.toContain('grid__wide');
    expect(wrapper.get('.field').classes()).toContain('grid__wide');
    await input.setValue('anna@example.com');
    expect(value.value).toBe('anna@example.com');
    await input.setValue('');
    expect(value.value).toBe('');
    await input.trigger('blur');
    expect(left).toEqual(['mail']);
  });

  it('shows a value it only reads (a computed one) as such', () => {
    const wrapper = mount(TextField, {
      props: { id: 'c', label: 'C', readonly: true, modelValue: 'ZGVtbw==' },
      global,
    });
    expect(wrapper.get('input').attributes('readonly')).toBeDefined();
    expect(wrapper.get('input').classes()).toContain('readonly');
  });
});

describe('CurrencyField', () => {
  it('is a labelled currency list with its help, and keeps a currency it does not know', async () => {
    const wrapper = mount(CurrencyField, {
      props: { id: 'partner-currency_code', placeholder: 'Choose a currency', help: 'Paid in.', modelValue: 'XQQ' },
      global,
      attachTo: document.body,
    });
    expect(wrapper.get('label').text()).toBe('Currency');
    const select = wrapper.get('[data-testid="partner-currency_code"]');
    expect(select.text()).toContain('XQQ');
    expect(wrapper.get('#partner-currency_code').attributes('aria-labelledby')).toBe('partner-currency_code-label');
    expect(select.attributes('aria-describedby')).toBe('partner-currency_code-help');
    await wrapper.setProps({ error: 'Choose the currency.' });
    expect(wrapper.get('[data-testid="partner-currency_code-error"]').text()).toBe('Choose the currency.');
    wrapper.unmount();
  });

  it('shows its placeholder while nothing is chosen, and says when its list closes', async () => {
    const wrapper = mount(CurrencyField, {
      props: { id: 'link-currency_code', placeholder: 'Choose', modelValue: '' },
      global,
      attachTo: document.body,
    });
    expect(wrapper.get('[data-testid="link-currency_code"]').text()).toContain('Choose');
    wrapper.findComponent({ name: 'Select' }).vm.$emit('hide');
    expect(wrapper.emitted('leave')).toHaveLength(1);
    wrapper.unmount();
  });
});

describe('AppDialog, DialogForm and DialogActions', () => {
  /** A dialog with a form, as the app's forms are built, in a parent that owns `visible`. */
  function mountForm(sticky = false) {
    const visible = ref(true);
    const submitted: number[] = [];
    const Parent = defineComponent(
      () => () =>
        h(
          AppDialog,
          {
            visible: visible.value,
            'onUpdate:visible': (v: boolean) => (visible.value = v),
            header: 'Transaction id',
            width: '30rem',
            testid: 'transaction-dialog',
          },
          () =>
            h(
              DialogForm,
              { onSubmit: () => submitted.push(1) },
              {
                intro: () => 'For this link.',
                default: () => [
                  h('input', { id: 'field' }),
                  h(DialogActions, { sticky }, () => [
                    h('button', { type: 'button', id: 'cancel', onClick: () => (visible.value = false) }, 'Cancel'),
                    h('button', { type: 'submit', id: 'save' }, 'Save'),
                  ]),
                ],
              },
            ),
        ),
    );
    const wrapper = mount(Parent, { global, attachTo: document.body });
    return { wrapper, visible, submitted };
  }

  it('is a modal dialog named by its title and for tests, its width kept inside the window', async () => {
    const { wrapper } = mountForm();
    await flushPromises();
    const dialog = $('[data-testid="transaction-dialog"]')!;
    expect(dialog.getAttribute('role')).toBe('dialog');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.textContent).toContain('Transaction id');
    // (happy-dom drops a min() width from the element's style: the dialog's own attribute says it.)
    expect(wrapper.findComponent(Dialog).vm.$attrs.style).toEqual({ width: 'min(30rem, 94vw)' });
    expect(wrapper.findComponent(Dialog).props('draggable')).toBe(false);
    wrapper.unmount();
  });

  it('puts the intro first and the choices last; the submit button submits the form once, the browser not checking it', async () => {
    const { wrapper, submitted } = mountForm();
    await flushPromises();
    const form = $<HTMLFormElement>('[data-testid="transaction-dialog"] form')!;
    expect(form.noValidate).toBe(true);
    expect(form.firstElementChild!.textContent).toBe('For this link.');
    expect(form.firstElementChild!.classList).toContain('dialog-form__intro');
    const actions = form.lastElementChild!;
    expect(actions.tagName).toBe('FOOTER');
    expect(actions.classList).toContain('dialog-actions');
    expect(actions.classList).not.toContain('dialog-actions--sticky');
    expect([...actions.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Cancel', 'Save']);
    $<HTMLButtonElement>('#save')!.click();
    await flushPromises();
    expect(submitted).toEqual([1]);
    wrapper.unmount();
  });

  it('closes through its model; a long form keeps its choices at the foot (sticky)', async () => {
    const { wrapper, visible } = mountForm(true);
    await flushPromises();
    expect($('footer.dialog-actions')!.classList).toContain('dialog-actions--sticky');
    $<HTMLButtonElement>('#cancel')!.click();
    await flushPromises();
    expect(visible.value).toBe(false);
    wrapper.unmount();
  });

  it('leaves out the intro it was not given', () => {
    const wrapper = mount(DialogForm, { slots: { default: '<input />' } });
    expect(wrapper.find('.dialog-form__intro').exists()).toBe(false);
    expect(wrapper.find('input').exists()).toBe(true);
  });
});

describe('FieldGrid', () => {
  it('sets its fields side by side: so many columns, or as many as fit at least so wide', () => {
    const two = mount(FieldGrid, { props: { columns: 2 }, slots: { default: '<input /><input />' } });
    expect(two.attributes('style')).toContain('grid-template-columns: repeat(2, minmax(0, 1fr))');
    expect(two.findAll('input')).toHaveLength(2);
    const fit = mount(FieldGrid, { props: { min: '15rem' } });
    expect(fit.attributes('style')).toContain('grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr))');
  });
});

describe('FieldWithAction', () => {
  it('puts the button beside the field, and leaves no room for one it was not given', () => {
    const both = mount(FieldWithAction, {
      slots: { default: '<input id="password" />', action: '<button>Generate</button>' },
    });
    expect(both.get('.with-action__field input').attributes('id')).toBe('password');
    expect(both.get('.with-action__action button').text()).toBe('Generate');
    const alone = mount(FieldWithAction, { slots: { default: '<input />' } });
    expect(alone.find('.with-action__action').exists()).toBe(false);
  });
});

describe('ForWhomField', () => {
  it('is the link’s For whom, named for tests, and says when the owner leaves it', async () => {
    const wrapper = mount(ForWhomField, { props: { modelValue: 'Anna', error: 'Too long.' }, global });
    const input = wrapper.get('input');
    expect(input.attributes('id')).toBe('link-forWhom');
    expect(input.attributes('data-testid')).toBe('link-forWhom');
    expect(input.attributes('placeholder')).toBe('The guest’s name');
    expect(wrapper.get('label').text()).toBe('For whom');
    expect(wrapper.get('[data-testid="link-forWhom-error"]').text()).toBe('Too long.');
    await input.trigger('blur');
    expect(wrapper.emitted('leave')).toHaveLength(1);
  });
});
