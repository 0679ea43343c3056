import { createSections } from '@renderer/lib/sections';
import { FEATURES } from './features';

/** Every feature's sections: provided to the screens by App.vue, loaded with their screens by the router. */
export const sections = createSections(FEATURES);
