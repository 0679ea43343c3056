import { SECTIONS, type Sections } from '@renderer/lib/sections';
import { sections } from '@renderer/shell/sections';

/**
 * Every feature's sections as the shell provides them (shell/sections.ts), for a component mounted alone that draws
 * slots (`global.provide`). Load the slots' code first (`loadSections(SLOT)`): the component then draws them at once.
 */
export const appSections: Record<symbol, Sections> = { [SECTIONS as symbol]: sections };
export const loadSections: Sections['load'] = (...slots) => sections.load(...slots);
