// Aura, PrimeVue's theme, with the design tokens of only the components the app draws (the full preset holds ~90
// components' tokens, 115 KB of the JavaScript loaded before the first screen). A component missing here would draw
// without its colours and spacing: test/renderer/themeParts.test.ts finds every PrimeVue component the renderer
// imports (and those they draw inside them) and fails for any whose tokens are not listed.
import base from '@primeuix/themes/aura/base';
import autocomplete from '@primeuix/themes/aura/autocomplete';
import badge from '@primeuix/themes/aura/badge';
import button from '@primeuix/themes/aura/button';
import checkbox from '@primeuix/themes/aura/checkbox';
import chip from '@primeuix/themes/aura/chip';
import datepicker from '@primeuix/themes/aura/datepicker';
import dialog from '@primeuix/themes/aura/dialog';
import drawer from '@primeuix/themes/aura/drawer';
import iconfield from '@primeuix/themes/aura/iconfield';
import inputnumber from '@primeuix/themes/aura/inputnumber';
import inputtext from '@primeuix/themes/aura/inputtext';
import menu from '@primeuix/themes/aura/menu';
import message from '@primeuix/themes/aura/message';
import multiselect from '@primeuix/themes/aura/multiselect';
import password from '@primeuix/themes/aura/password';
import popover from '@primeuix/themes/aura/popover';
import progressbar from '@primeuix/themes/aura/progressbar';
import radiobutton from '@primeuix/themes/aura/radiobutton';
import rating from '@primeuix/themes/aura/rating';
import ripple from '@primeuix/themes/aura/ripple';
import select from '@primeuix/themes/aura/select';
import selectbutton from '@primeuix/themes/aura/selectbutton';
import skeleton from '@primeuix/themes/aura/skeleton';
import tabs from '@primeuix/themes/aura/tabs';
import tag from '@primeuix/themes/aura/tag';
import textarea from '@primeuix/themes/aura/textarea';
import toast from '@primeuix/themes/aura/toast';
import togglebutton from '@primeuix/themes/aura/togglebutton';
import toggleswitch from '@primeuix/themes/aura/toggleswitch';
import virtualscroller from '@primeuix/themes/aura/virtualscroller';

/** The Aura preset (base tokens + the app's components), for `definePreset` in theme.ts. */
export const Aura = {
  ...base,
  components: {
    autocomplete,
    badge,
    button,
    checkbox,
    chip,
    datepicker,
    dialog,
    drawer,
    iconfield,
    inputnumber,
    inputtext,
    menu,
    message,
    multiselect,
    password,
    popover,
    progressbar,
    radiobutton,
    rating,
    ripple,
    select,
    selectbutton,
    skeleton,
    tabs,
    tag,
    textarea,
    toast,
    togglebutton,
    toggleswitch,
    virtualscroller,
  },
};
